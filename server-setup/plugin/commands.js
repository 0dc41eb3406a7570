'use strict'
// The RaspberryJuice command table, as RaspberryJuice 1.12.1 answers it, plus the announced
// extension events.block.places / events.block.breaks (reply format of sakebomb/RaspberryJuice).
// Unlike upstream, chat events are escaped as Raspberry Jam Mod does (`|` as `&#124;`, `&` as `&amp;`),
// so no text a player types can pass for another player's message; `api.version` says so. Control
// characters are written as numeric entities (`&#10;`) in chat and as U+FFFD in names: no reply line is split.
// Our own extension, announced by `api.version` as `player-address`: blockref.player.getAddress(entityId)
// answers the network address the player's client connects from (so a referee can tell two machines
// apart in offline mode, where anyone can log in under any name). Announced as `whisper`:
// blockref.chat.whisper(name,message) shows the message to that online player only (a private line).
// A handler returns the reply line, or undefined for "no reply"; throwing means `Fail`.

const { Vec3 } = require('vec3')
const { CommandError, parseDouble, parseInt32, parseByte, parseBlockCoord, need, formatDouble } = require('./parse')

const AIR_NAMES = new Set(['air', 'cave_air', 'void_air'])
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g
const nameText = (name) => String(name).replace(CONTROL, '\ufffd')
const API_NAME = 'raspberryjuice-flying-squid'
const API_VERSION = '1'
const PLAYER_ADDRESS = 'player-address'
const WHISPER = 'whisper'

function makeCommands (hub) {
  const { serv, legacy, blocks } = hub

  // ---- coordinates (relative to the session's origin, like RaspberryJuice) ----
  const blockAt = (s, args, i = 0) => new Vec3(
    s.origin.x + parseBlockCoord(args[i]),
    s.origin.y + parseBlockCoord(args[i + 1]),
    s.origin.z + parseBlockCoord(args[i + 2]))
  const pointAt = (s, args, i = 0) => new Vec3(
    s.origin.x + parseDouble(args[i]),
    s.origin.y + parseDouble(args[i + 1]),
    s.origin.z + parseDouble(args[i + 2]))
  const tileText = (s, pos) => [pos.x - s.origin.x, pos.y - s.origin.y, pos.z - s.origin.z].join(',')
  const entityTile = (s, e) => tileText(s, e.position.floored())
  const entityPos = (s, e) => [e.position.x - s.origin.x, e.position.y - s.origin.y, e.position.z - s.origin.z]
    .map(formatDouble).join(',')

  // ---- players and entities ----
  const online = () => serv.players.filter(p => !p.disconnected)
  function currentPlayer (s) {
    if (!s.currentPlayer) s.currentPlayer = online()[0] || null
    if (!s.currentPlayer) throw new CommandError('nobody is online')
    return s.currentPlayer
  }
  function entityById (text) {
    const id = parseInt32(text)
    const player = online().find(p => p.id === id)
    if (player) return player
    const entity = serv.entities[id]
    if (!entity) throw new CommandError(`no entity ${id}`)
    return entity
  }
  async function teleport (entity, pos) {
    if (entity.disconnected) throw new CommandError('player is offline')
    await entity.teleport(pos)
  }
  // Facing, as Bukkit's yaw (degrees, 0 = south, 90 = west) and pitch (degrees, 90 = straight down), which
  // RaspberryJuice 1.11+ reads and sets with entity.getRotation/setRotation, getPitch/setPitch. flying-squid
  // keeps both as protocol bytes (1/256 of a turn); a player is told with a position packet of its own place,
  // in degrees (flying-squid's sendSelfPosition writes the bytes there).
  const toDegrees = (byte) => ((byte ?? 0) * 360 / 256 + 360) % 360
  const toByte = (degrees) => {
    const b = Math.round(((degrees % 360) + 360) % 360 * 256 / 360) % 256
    return b > 127 ? b - 256 : b
  }
  function face (entity, yaw, pitch) {
    if (entity.disconnected) throw new CommandError('player is offline')
    if (!Number.isFinite(yaw) || !Number.isFinite(pitch)) throw new CommandError('not a finite angle')
    entity.yaw = toByte(yaw)
    entity.pitch = toByte(Math.max(-90, Math.min(90, pitch)))
    if (!entity._client) return // not a player: nobody to tell
    const p = entity.position
    entity._client.write('position', {
      teleportId: 1, x: p.x, y: p.y, z: p.z, dx: 0, dy: 0, dz: 0,
      yaw: toDegrees(entity.yaw), pitch: Math.max(-90, Math.min(90, pitch)), flags: 0
    })
  }
  const pitchOf = (entity) => { const d = toDegrees(entity.pitch); return d > 180 ? d - 360 : d }

  // flying-squid keeps a yaw as a byte (1/256 of a turn)

  // ---- blocks ----
  const stateOf = (id, data) => legacy.toState(id, data) ?? 0 // unknown ids are air, as in CraftBukkit 1.12
  const box = (a, b) => ({
    min: new Vec3(Math.min(a.x, b.x), Math.min(a.y, b.y), Math.min(a.z, b.z)),
    max: new Vec3(Math.max(a.x, b.x), Math.max(a.y, b.y), Math.max(a.z, b.z))
  })

  async function heightAt (x, z) {
    const col = await serv.overworld.getColumn(x >> 4, z >> 4)
    const minY = col.minY ?? 0
    const local = new Vec3(x & 15, 0, z & 15)
    for (let y = minY + (col.worldHeight ?? 256) - 1; y >= minY; y--) {
      local.y = y
      const block = serv.registry.blocksByStateId[col.getBlockStateId(local)]
      if (block && !AIR_NAMES.has(block.name)) return y + 1 // CraftBukkit 1.12: first free y above
    }
    return minY
  }

  // ---- events ----
  const hitText = (s, e) => `${tileText(s, e.pos)},${e.face},${e.entityId}`
  // Event text: a control character or line separator (a chat packet may hold any) would end the
  // reply line early and the rest would pass for the replies after it, so chat writes it as a numeric
  // entity (`\n` as `&#10;`), raw chat included; escaped chat also writes `&` and `|`. A player name
  // (an offline-mode login may carry any) has it as U+FFFD, the same wherever the name is written.
  const escapeTyped = (text) => hub.escapeChat ? String(text).replace(/&/g, '&amp;').replace(/\|/g, '&#124;') : String(text)
  const entities = (text) => text.replace(CONTROL, (c) => `&#${c.codePointAt(0)};`)
  const chatText = (e) => `${e.entityId},${entities(escapeTyped(e.message))}`
  const changeText = (s, e) => `${tileText(s, e.pos)},${e.blockId},${escapeTyped(nameText(e.name))}`
  const byEntity = (id) => (e) => e.entityId === id
  const pollHits = (s, keep) => s.drain('hits', keep).map(e => hitText(s, e)).join('|')
  const pollChats = (s, keep) => s.drain('chats', keep).map(chatText).join('|')
  function clearFor (s, keep) {
    s.drain('hits', keep)
    s.drain('chats', keep)
  }

  return {
    'world.getBlock': async (s, args) => {
      need(args, 3)
      const p = blockAt(s, args)
      return String(legacy.toLegacy(await blocks.getStateId(p.x, p.y, p.z))[0])
    },
    'world.getBlockWithData': async (s, args) => {
      need(args, 3)
      const p = blockAt(s, args)
      return legacy.toLegacy(await blocks.getStateId(p.x, p.y, p.z)).join(',')
    },
    'world.getBlocks': async (s, args) => {
      need(args, 6)
      const { min, max } = box(blockAt(s, args), blockAt(s, args, 3))
      return (await blocks.readBox(min, max, state => legacy.toLegacy(state)[0])).join(',')
    },
    'world.setBlock': async (s, args) => {
      need(args, 4)
      const p = blockAt(s, args)
      const state = stateOf(parseInt32(args[3]), args.length > 4 ? parseByte(args[4]) : 0)
      await blocks.setStateId(p.x, p.y, p.z, state)
    },
    'world.setBlocks': async (s, args) => {
      need(args, 7)
      const { min, max } = box(blockAt(s, args), blockAt(s, args, 3))
      await blocks.fillBox(min, max, stateOf(parseInt32(args[6]), args.length > 7 ? parseByte(args[7]) : 0))
    },
    'world.getHeight': async (s, args) => {
      need(args, 2)
      const x = s.origin.x + parseBlockCoord(args[0])
      const z = s.origin.z + parseBlockCoord(args[1])
      return String((await heightAt(x, z)) - s.origin.y)
    },
    'world.getPlayerIds': async () => {
      const players = online()
      if (players.length === 0) throw new CommandError('nobody is online')
      return players.map(p => p.id).join('|')
    },
    'world.getPlayerId': async (s, args) => {
      const player = online().find(p => p.username === args[0])
      if (!player) throw new CommandError(`player ${args[0]} not found`)
      return String(player.id)
    },
    // Extension (upstream answers Fail): the server's name, version and the features a client must know.
    'api.version': async () => {
      if (!hub.escapeChat) throw new CommandError('api.version is not supported') // as upstream: Fail
      return `${API_NAME},${API_VERSION},escaped-chat,${PLAYER_ADDRESS},${WHISPER}`
    },
    // Extension (ours; upstream answers Fail): the address an online player connects from, IPv4 as
    // a.b.c.d (not as ::ffff:a.b.c.d when the game port listens on every IPv6 and IPv4 interface).
    'blockref.player.getAddress': async (s, args) => {
      need(args, 1)
      const id = parseInt32(args[0])
      const player = online().find(p => p.id === id)
      const address = player?._client.socket?.remoteAddress
      if (!address) throw new CommandError(`no player ${id} online`)
      return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1')
    },
    'chat.post': async (s, args) => {
      serv.broadcast({ text: args.join(',') })
    },
    // Extension (ours; upstream answers Fail): chat.post for one online player, named by login name (no
    // comma in it, the first argument); the rest is the message, as chat.post takes it. A setter like
    // chat.post: no reply, and a player who is not online (or just left) gets nothing and it is no Fail
    // (a Fail would stand for a failed setter at the client's next fence). A text component, so nothing
    // in the message is read as formatting.
    'blockref.chat.whisper': async (s, args) => {
      need(args, 2)
      const player = online().find(p => p.username === args[0])
      if (player) player.chat({ text: args.slice(1).join(',') })
      else hub.log(`whisper to ${nameText(args[0])}: not online`)
    },

    'events.clear': async (s) => {
      // RaspberryJuice clears hits and chat; the extension queues go too, as in sakebomb's fork.
      for (const kind of ['hits', 'chats', 'places', 'breaks']) s.drain(kind)
    },
    'events.block.hits': async (s) => pollHits(s),
    'events.chat.posts': async (s) => pollChats(s),
    'events.projectile.hits': async () => '', // flying-squid has no arrows, so no projectile ever hits
    'player.events.block.hits': async (s) => pollHits(s, byEntity(currentPlayer(s).id)),
    'player.events.chat.posts': async (s) => pollChats(s, byEntity(currentPlayer(s).id)),
    'player.events.projectile.hits': async (s) => { currentPlayer(s); return '' },
    'player.events.clear': async (s) => { clearFor(s, byEntity(currentPlayer(s).id)) },
    'entity.events.block.hits': async (s, args) => pollHits(s, byEntity(parseInt32(args[0]))),
    'entity.events.chat.posts': async (s, args) => pollChats(s, byEntity(parseInt32(args[0]))),
    'entity.events.projectile.hits': async (s, args) => { parseInt32(args[0]); return '' },
    'entity.events.clear': async (s, args) => { clearFor(s, byEntity(parseInt32(args[0]))) },
    // Extension (not in upstream RaspberryJuice, which answers Fail): x,y,z,blockId,playerName|...
    'events.block.places': async (s) => s.drain('places').map(e => changeText(s, e)).join('|'),
    'events.block.breaks': async (s) => s.drain('breaks').map(e => changeText(s, e)).join('|'),

    'player.getTile': async (s) => entityTile(s, currentPlayer(s)),
    'player.setTile': async (s, args) => { need(args, 3); await teleport(currentPlayer(s), blockAt(s, args)) },
    'player.getPos': async (s) => entityPos(s, currentPlayer(s)),
    'player.setPos': async (s, args) => { need(args, 3); await teleport(currentPlayer(s), pointAt(s, args)) },
    'player.getAbsPos': async (s) => {
      const p = currentPlayer(s).position
      return [p.x, p.y, p.z].map(formatDouble).join(',')
    },
    'player.setAbsPos': async (s, args) => {
      need(args, 3)
      await teleport(currentPlayer(s), new Vec3(parseDouble(args[0]), parseDouble(args[1]), parseDouble(args[2])))
    },
    'entity.getTile': async (s, args) => entityTile(s, entityById(args[0])),
    'entity.setTile': async (s, args) => { need(args, 4); await teleport(entityById(args[0]), blockAt(s, args, 1)) },
    'entity.getPos': async (s, args) => entityPos(s, entityById(args[0])),
    'entity.setPos': async (s, args) => { need(args, 4); await teleport(entityById(args[0]), pointAt(s, args, 1)) },
    'entity.getRotation': async (s, args) => formatDouble(toDegrees(entityById(args[0]).yaw)),
    'entity.setRotation': async (s, args) => {
      need(args, 2)
      const entity = entityById(args[0])
      face(entity, parseDouble(args[1]), pitchOf(entity))
    },
    'entity.getPitch': async (s, args) => formatDouble(pitchOf(entityById(args[0]))),
    'entity.setPitch': async (s, args) => {
      need(args, 2)
      const entity = entityById(args[0])
      face(entity, toDegrees(entity.yaw), parseDouble(args[1]))
    },
    'player.getRotation': async (s) => formatDouble(toDegrees(currentPlayer(s).yaw)),
    // Extension (ours; upstream answers Fail): the lowest and highest y a block may have, in API coordinates.
    'blockref.world.getHeightLimits': async (s) => {
      const col = await serv.overworld.getColumn(0, 0)
      const minY = col.minY ?? 0
      return [minY - s.origin.y, minY + (col.worldHeight ?? 256) - 1 - s.origin.y].join(',')
    },
    'entity.getName': async (s, args) => {
      const id = parseInt32(args[0])
      const entity = online().find(p => p.id === id) || serv.entities[id]
      if (!entity) return undefined // RaspberryJuice only logs this and never replies
      return nameText(entity.username ?? entity.name ?? entity.type)
    }
  }
}

module.exports = makeCommands
