'use strict'
// flying-squid plugin speaking the RaspberryJuice (mcpi) socket protocol.
// Settings: { host = '127.0.0.1', port = 4711, location = 'relative' | 'absolute',
//             chat = 'escaped' | 'raw' (raw: chat events unescaped and no api.version, as upstream),
//             spawn = [x, y, z] (the world spawn block, origin of RELATIVE coordinates) }.
// Exposes serv.raspberryJuice = { ready: Promise<port>, close(): Promise }.
// Chat typed while no API connection is attached is kept for the next one (backlog.js).

const net = require('net')
const { Vec3 } = require('vec3')
const makeLegacy = require('./legacy')
const makeBlocks = require('./blocks')
const makeCommands = require('./commands')
const Session = require('./session')
const { Backlog } = require('./backlog')

const SWORD = /_sword$/
const DUPLICATE_BREAK_MS = 250 // creative digs sometimes fire `dug` twice for one block (G8)

module.exports.server = function (serv) {
  const settings = this.settings || {}
  const location = String(settings.location || 'relative').toLowerCase() === 'absolute' ? 'absolute' : 'relative'
  const spawn = settings.spawn || [0, 5, 0]
  const hub = {
    serv,
    sessions: new Set(),
    log: (message) => serv.debug?.(`[raspberryjuice] ${message}`),
    origin: () => (location === 'absolute' ? new Vec3(0, 0, 0) : new Vec3(spawn[0], spawn[1], spawn[2])),
    escapeChat: settings.chat !== 'raw',
    broadcast (kind, record) {
      for (const session of hub.sessions) session.push(kind, record)
      if (kind === 'chats') hub.backlog.offer(record, hub.sessions)
    },
    // A session's first command: it takes the chat typed while no session was attached (see backlog.js).
    attach (session) {
      session.queues.chats.unshift(...hub.backlog.take(session.queues.chats))
    }
  }
  hub.backlog = new Backlog(() => serv.players.filter(p => !p.disconnected).map(p => p.id))
  hub.legacy = makeLegacy(serv.registry)
  hub.blocks = makeBlocks(serv)
  hub.commands = makeCommands(hub)

  let resolveReady, rejectReady
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject })
  ready.catch(() => {}) // the launcher reports it
  const server = net.createServer((socket) => hub.sessions.add(new Session(socket, hub)))
  server.on('error', rejectReady)

  serv.raspberryJuice = {
    hub,
    ready,
    close: () => new Promise((resolve) => {
      for (const session of hub.sessions) session.socket.destroy()
      server.close(() => resolve())
    })
  }

  serv.on('pluginsReady', () => {
    server.listen(settings.port ?? 4711, settings.host || '127.0.0.1', () => resolveReady(server.address().port))
    // Record a placement only when the block really lands: placeItem marks the target cell,
    // the player's setBlock (the last step of placeBlock.js) confirms it. A player may have several
    // placements under way at once (blocks placed a few milliseconds apart): each cell is marked.
    const placeItem = serv.placeItem
    serv.placeItem = async (data) => {
      const result = await placeItem(data)
      if (data.player && result && serv.registry.blocks[result.id] && data.placedPosition) {
        data.player.raspberryJuicePlacing.add(data.placedPosition.toString())
      }
      return result
    }
  })
}

module.exports.player = function (player, serv) {
  const hub = serv.raspberryJuice.hub
  const legacyId = (stateId) => hub.legacy.toLegacy(stateId)[0]

  // Right-click on a block while holding a sword = a RaspberryJuice block hit. Recorded when the
  // packet arrives, before flying-squid's own (asynchronous) handling of it.
  player._client.on('block_place', ({ location, direction, hand } = {}) => {
    const held = player.inventory?.slots[hand === 1 ? 45 : 36 + player.heldItemSlot]
    if (!held || !SWORD.test(held.name) || !(direction >= 0 && direction <= 5)) return
    hub.broadcast('hits', { pos: new Vec3(location.x, location.y, location.z), face: direction, entityId: player.id })
  })

  player.on('chat', ({ message }, cancelled) => {
    if (!cancelled) hub.broadcast('chats', { entityId: player.id, message })
  })

  player.raspberryJuicePlacing = new Set() // cells this player's placements are about to fill
  const setBlock = player.setBlock
  player.setBlock = (position, stateId) => {
    const result = setBlock(position, stateId)
    if (player.raspberryJuicePlacing.delete(position.toString())) {
      const record = { pos: position.clone(), blockId: legacyId(stateId), name: player.username }
      Promise.resolve(result).then(() => hub.broadcast('places', record), () => {})
    }
    return result
  }

  let lastBreak = { key: '', time: 0 }
  player.on('dug_done', ({ position, block }, cancelled) => {
    if (cancelled) return
    const key = position.toString()
    const now = Date.now()
    if (key === lastBreak.key && now - lastBreak.time < DUPLICATE_BREAK_MS) return
    lastBreak = { key, time: now }
    hub.broadcast('breaks', { pos: position.clone(), blockId: legacyId(block.stateId), name: player.username })
  })
}
