#!/usr/bin/env node
'use strict'
// Drives mineflayer bots for tests. One request per line on stdin, one reply per line on stdout:
//   {"id": 1, "op": "join", "name": "alice"}            -> {"id": 1, "ok": true, "entityId": 12}
//   {"id": 1, "op": "join", "name": "alice", "from": "127.0.0.2"}  connects from that local address
//   {"id": 2, "op": "place", "name": "alice", "pos": [3, 5, 2], "block": "red_wool"}
//   ops: join, place, place_over, place_together, break, hit, chat ("packet": true: one raw chat packet), move, look,
//   chat_log, leave
// Failures answer {"id": n, "ok": false, "error": "..."}. Every action returns only once the server
// has applied it: placements wait for the server's block_change, the others for a /ping round trip.
// Usage: node harness.js --host 127.0.0.1 --port 25565 --version 1.21.4

const net = require('net')
const readline = require('readline')
const { parseArgs } = require('util')
const mineflayer = require('mineflayer')
const { Vec3 } = require('vec3')

const { values: opts } = parseArgs({
  options: { host: { type: 'string', default: '127.0.0.1' }, port: { type: 'string' }, version: { type: 'string' } }
})
const BLOCK_SLOT = 0 // hotbar slot for blocks to place
const CLEAR_WAIT_MS = 2000 // how long a cell seen full may take to show as emptied
const SWORD_SLOT = 1 // hotbar slot for the sword
const JOIN_TIMEOUT_MS = 20000
const VIEW_DISTANCE = 8 // chunks; the server sends at most its own view-distance (8)
const CHUNK_WAIT_MS = 25000 // under load, far chunks can take a while (the Python side gives up after 30 s)
const FENCE_TIMEOUT_MS = 5000
const FENCE_REPLY = /^pong \[\d+\]!$/
// Faces to place against, best first: the block below, the four sides, the block above.
const FACES = [new Vec3(0, 1, 0), new Vec3(1, 0, 0), new Vec3(-1, 0, 0), new Vec3(0, 0, 1), new Vec3(0, 0, -1), new Vec3(0, -1, 0)]

const bots = new Map() // name -> { bot, messages, fenceSeq }

function vec (pos) {
  if (!Array.isArray(pos) || pos.length !== 3 || !pos.every(Number.isFinite)) throw new Error(`bad position ${JSON.stringify(pos)}`)
  return new Vec3(pos[0], pos[1], pos[2])
}

function withTimeout (promise, ms, what) {
  let timer
  return Promise.race([promise, new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)
  })]).finally(() => clearTimeout(timer))
}

function entry (name) {
  const found = bots.get(name)
  if (!found) throw new Error(`no bot named ${name}; join it first`)
  return found
}

// Round trip through the server: flying-squid handles one client's packets in order, so once the
// reply to /ping arrives, every earlier packet of this bot has been handled.
async function fence (e) {
  // flying-squid's /ping answers "pong [d+1]!" for the first character d of its argument.
  const digit = e.fenceSeq++ % 9
  const reply = `pong [${digit + 1}]!`
  const arrived = new Promise((resolve) => {
    const listener = (text) => {
      if (text !== reply) return
      e.bot.removeListener('messagestr', listener)
      resolve()
    }
    e.bot.on('messagestr', listener)
  })
  e.bot.chat(`/ping ${digit}`)
  await withTimeout(arrived, FENCE_TIMEOUT_MS, 'server round trip')
}

async function hold (bot, slot, itemName) {
  const item = bot.registry.itemsByName[itemName]
  if (!item) throw new Error(`unknown item ${itemName}`)
  const current = bot.inventory.slots[36 + slot]
  if (!current || current.type !== item.id) {
    const Item = require('prismarine-item')(bot.registry)
    const stack = new Item(item.id, item.stackSize || 1)
    bot._client.write('set_creative_slot', { slot: 36 + slot, item: Item.toNotch(stack) })
    bot._setSlot(36 + slot, stack)
  }
  if (bot.quickBarSlot !== slot) bot.setQuickBarSlot(slot)
}

// The block at pos once its chunk has arrived (the server sends far chunks a while after joining).
async function loadedBlock (bot, pos) {
  const deadline = Date.now() + CHUNK_WAIT_MS
  for (;;) {
    const block = bot.blockAt(pos)
    if (block) return block
    if (Date.now() > deadline) throw new Error(`the chunk at ${pos} is not loaded for ${bot.username} (too far away? it has ${bot.world.getColumns().length} chunks around ${bot.entity.position.floored()})`)
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

// What placing `block` at `pos` needs: the target cell (air, its chunk loaded) and a solid neighbour.
// occupied: place even though the cell holds a block (as a client whose view lags, or a hostile one).
async function preparePlace (bot, pos, block, occupied = false) {
  const target = vec(pos)
  if (!bot.registry.blocksByName[block]) throw new Error(`unknown block ${block}`)
  let current = await loadedBlock(bot, target)
  // A cell the server has just emptied may still look full to the bot until the update arrives.
  for (const until = Date.now() + CLEAR_WAIT_MS; !occupied && current.name !== 'air' && Date.now() < until;) {
    await new Promise(resolve => setTimeout(resolve, 20))
    current = bot.blockAt(target) || current
  }
  if (!occupied && current.name !== 'air') throw new Error(`cannot place at ${target}: the cell holds ${current.name}`)
  for (const face of FACES) {
    const candidate = bot.blockAt(target.minus(face))
    if (candidate && candidate.boundingBox === 'block') return { bot, target, block, reference: candidate, face }
  }
  throw new Error(`cannot place at ${target}: no solid neighbour to place against`)
}

// Place as a person: hold the block, look, right-click the neighbour; returns once the server has set it
// (a referee may have taken it back already: the server's update showing it is what counts).
async function placeBlock ({ bot, target, block, reference, face }) {
  await hold(bot, BLOCK_SLOT, block)
  let shown = false
  const seen = (oldBlock, newBlock) => { shown = shown || newBlock?.name === block }
  bot.on(`blockUpdate:${target}`, seen)
  try {
    await bot._placeBlockWithOptions(reference, face, { forceLook: true, swingArm: 'right' })
  } finally {
    bot.removeListener(`blockUpdate:${target}`, seen)
  }
  const placed = bot.blockAt(target)
  if (!shown && placed?.name !== block) throw new Error(`placed ${placed?.name} instead of ${block} at ${target}`)
}

const ops = {
  async join ({ name, from }) {
    if (bots.has(name)) throw new Error(`${name} has already joined`)
    const host = opts.host
    const port = Number(opts.port)
    // `from`: the local address the bot's connection leaves from (another machine, as the server sees it).
    const connect = from ? (client) => client.setSocket(net.connect({ host, port, localAddress: String(from) })) : undefined
    const bot = mineflayer.createBot({
      host, port, username: name, auth: 'offline', version: opts.version,
      viewDistance: VIEW_DISTANCE, hideErrors: true, logErrors: false, connect
    })
    const e = { bot, messages: [], fenceSeq: 0 }
    bot.on('messagestr', (text, position) => {
      if (position !== 'game_info' && !FENCE_REPLY.test(text)) e.messages.push(text)
    })
    try {
      await withTimeout(new Promise((resolve, reject) => {
        bot.once('spawn', resolve)
        bot.once('kicked', (reason) => reject(new Error(`kicked: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`)))
        bot.once('error', reject)
        bot.once('end', (reason) => reject(new Error(`connection ended: ${reason}`)))
      }), JOIN_TIMEOUT_MS, `join of ${name}`)
      await loadedBlock(bot, bot.entity.position.floored())
    } catch (err) {
      bot.end()
      throw err
    }
    bots.set(name, e)
    bot.on('end', () => bots.delete(name))
    await fence(e)
    return { entityId: bot.entity.id, position: bot.entity.position.toArray(), gameMode: bot.game.gameMode }
  },

  async place ({ name, pos, block }) {
    await placeBlock(await preparePlace(entry(name).bot, pos, block))
    return {}
  },

  // Right-click a neighbour of pos with the block in hand although pos holds a block; replies with the
  // block at pos once the server has handled the placement (the server's answer, whatever it is).
  async place_over ({ name, pos, block }) {
    const e = entry(name)
    const { bot, target, reference, face } = await preparePlace(e.bot, pos, block, true)
    await hold(bot, BLOCK_SLOT, block)
    await bot._genericPlace(reference, face, { forceLook: true, swingArm: 'right' })
    await fence(e)
    await fence(e) // the server handles a placement asynchronously: a second round trip sees it done
    return { block: bot.blockAt(target).name }
  },

  // Placements started at set offsets from one moment, as players racing each other would:
  // placements = [{name, pos, block, after_ms}]. Replies with the offsets the placements really
  // started at (ms), once every block has landed.
  async place_together ({ placements }) {
    if (!Array.isArray(placements)) throw new Error('placements must be a list')
    const prepared = []
    for (const { name, pos, block, after_ms: afterMs = 0 } of placements) {
      prepared.push({ ...(await preparePlace(entry(name).bot, pos, block)), afterMs: Number(afterMs) })
    }
    const start = Date.now()
    const startedMs = await Promise.all(prepared.map(async (p) => {
      await new Promise(resolve => setTimeout(resolve, Math.max(0, p.afterMs - (Date.now() - start))))
      const at = Date.now() - start
      await placeBlock(p)
      return at
    }))
    return { started_ms: startedMs }
  },

  async break ({ name, pos }) {
    const e = entry(name)
    const block = await loadedBlock(e.bot, vec(pos))
    if (block.name === 'air') throw new Error(`nothing to break at ${block.position}`)
    await e.bot.dig(block, true)
    await fence(e)
    await fence(e)
    return {}
  },

  async hit ({ name, pos, sword = 'diamond_sword' }) {
    const e = entry(name)
    const block = await loadedBlock(e.bot, vec(pos))
    await hold(e.bot, SWORD_SLOT, sword)
    await e.bot.activateBlock(block, new Vec3(0, 1, 0))
    await fence(e)
    return {}
  },

  // packet: one raw chat packet holding the message exactly (line breaks, any length), where
  // bot.chat splits it at line breaks and into pieces of 256 characters as the vanilla client does.
  async chat ({ name, message, packet = false }) {
    const e = entry(name)
    if (packet) e.bot._client.chat(String(message))
    else e.bot.chat(String(message))
    await fence(e)
    return {}
  },

  async move ({ name, pos }) {
    const e = entry(name)
    const bot = e.bot
    const goal = vec(pos)
    const deadline = Date.now() + 20000
    try {
      for (;;) {
        const here = bot.entity.position
        const distance = Math.hypot(goal.x - here.x, goal.z - here.z)
        if (distance < 0.3) break
        if (Date.now() > deadline) throw new Error(`could not reach ${goal} (stuck at ${here})`)
        await bot.lookAt(new Vec3(goal.x, here.y + bot.entity.height * 0.9, goal.z), true)
        bot.setControlState('forward', true)
        bot.setControlState('sprint', distance > 2)
        bot.setControlState('jump', Boolean(bot.entity.isCollidedHorizontally)) // undefined before the first physics tick
        await bot.waitForTicks(1)
      }
    } finally {
      bot.clearControlStates()
    }
    await bot.waitForTicks(2) // let the final position packet go out
    await fence(e)
    return { position: bot.entity.position.toArray() }
  },

  // Turn to look at pos (the head only; the bot stays where it stands); returns once the server knows.
  async look ({ name, pos }) {
    const e = entry(name)
    await e.bot.lookAt(vec(pos), true)
    await e.bot.waitForTicks(2) // let the look packet go out
    await fence(e)
    return { yaw: e.bot.entity.yaw }
  },

  async chat_log ({ name }) {
    return { messages: [...entry(name).messages] }
  },

  async leave ({ name }) {
    const e = entry(name)
    await new Promise((resolve) => {
      e.bot.once('end', resolve)
      e.bot.quit()
    })
    bots.delete(name)
    return {}
  }
}

function reply (message) {
  process.stdout.write(JSON.stringify(message) + '\n')
}

const input = readline.createInterface({ input: process.stdin })
input.on('line', async (line) => {
  if (!line.trim()) return
  let request
  try {
    request = JSON.parse(line)
  } catch (err) {
    reply({ id: null, ok: false, error: `bad JSON: ${err.message}` })
    return
  }
  const op = ops[request.op]
  if (!op) {
    reply({ id: request.id, ok: false, error: `unknown op ${request.op}` })
    return
  }
  try {
    reply({ id: request.id, ok: true, ...(await op(request)) })
  } catch (err) {
    reply({ id: request.id, ok: false, error: err.message || String(err) })
  }
})
input.on('close', () => {
  for (const { bot } of bots.values()) bot.quit()
  setTimeout(() => process.exit(0), 200)
})
