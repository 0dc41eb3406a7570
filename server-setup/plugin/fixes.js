'use strict'
// Workarounds for known flying-squid 1.12.0 bugs (see server-setup/README.md, "Known bugs").
// Loaded as an external plugin; everything that replaces a built-in waits for `pluginsReady`,
// because external plugins run before most built-ins (G4).

const { Vec3 } = require('vec3')

const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator']
const DEFAULT_VIEW = 8 // chunks, if the launcher does not say
const LOGIN_WAIT_MS = 1000
// Blocks vanilla lets a placement replace; into any other block a placement is refused.
const REPLACEABLE = new Set(['air', 'cave_air', 'void_air', 'water', 'lava', 'short_grass', 'tall_grass', 'fern',
  'large_fern', 'dead_bush', 'seagrass', 'tall_seagrass', 'vine', 'fire', 'soul_fire', 'snow', 'structure_void',
  'light', 'glow_lichen', 'hanging_roots'])

module.exports.server = function (serv) {
  const settings = this.settings || {}
  const spawn = settings.spawn || [0, 5, 0]
  serv.on('pluginsReady', () => {
    // G2: sound_effect packets are malformed on 1.19.3+; a strict client may drop the connection.
    serv.playSound = () => {}
    // G7: the default spawn search loops forever over a void column and is random in 0..30.
    serv.getSpawnPoint = async () => new Vec3(spawn[0] + 0.5, spawn[1], spawn[2] + 0.5)
    // Columns nobody looks at are dropped from memory; an in-memory world would lose its edits.
    serv.overworld.unloadColumn = () => {}
    // G15: from 1.20.3 chat is NBT text, and flying-squid's classic colour codes arrive raw in it
    // ("&ealice joined the game."): drop them from plain-text messages.
    const createChatComponent = serv._createChatComponent
    serv._createChatComponent = (text) => createChatComponent(
      typeof text === 'string' && serv.supportFeature('chatPacketsUseNbtComponents') ? text.replace(/&[0-9a-fk-or]/g, '') : text)
    // G16: placeBlock sets the placed block whatever the target cell holds, so a block placed against a
    // neighbour replaced the block already in the cell (placed by a client that had not seen that block
    // yet, or one that does not care). As vanilla, such a placement is refused and the placer is sent the
    // cell as it is, which takes back the block its client shows there.
    const placeItem = serv.placeItem
    serv.placeItem = async (data) => {
      if (data.player && data.placedPosition) {
        const current = await data.player.world.getBlock(data.placedPosition)
        if (current && !REPLACEABLE.has(current.name)) {
          data.player.sendBlock(data.placedPosition, current.stateId)
          return {}
        }
      }
      return placeItem(data)
    }
  })
}

module.exports.player = function (player) {
  // G13: player.view is set only when the client's settings packet arrives; if the rest of the chunks
  // are sent before it, their radius is Math.min(undefined, view-distance) = NaN and only the first
  // 7 x 7 chunks ever arrive (until the player walks 16 blocks). Start from the server's distance.
  if (player.view === undefined) player.view = (this.settings && this.settings.viewDistance) || DEFAULT_VIEW
  // G14: after 'spawned', login waits for a 'flying' or 'look' packet before sending the rest of the
  // chunks. An idle client (mineflayer on 1.12+) sends 'flying' once, possibly before that wait
  // starts, and then only 'position' every second: the wait never ends and the player never gets
  // the chunks beyond the first 6 x 6. Login emits 'spawned' right before it waits, so the wait is
  // replaced there with one that takes any movement packet, or gives up after a second.
  player.on('spawned', () => {
    player.waitPlayerLogin = () => new Promise((resolve) => {
      const events = ['flying', 'look', 'position', 'position_look']
      const done = () => {
        clearTimeout(timer)
        events.forEach(event => player._client.removeListener(event, done))
        resolve()
      }
      const timer = setTimeout(done, LOGIN_WAIT_MS)
      events.forEach(event => player._client.on(event, done))
    })
  })
  // G1: on 1.20.5+ the login packet carries the game mode in worldState, which flying-squid leaves
  // at the captured vanilla value ('survival'); the client then digs with survival timings.
  const write = player._client.write.bind(player._client)
  player._client.write = (name, params) => {
    if (name === 'login' && params && params.worldState) {
      params = { ...params, worldState: { ...params.worldState, gamemode: GAME_MODES[player.gameMode] || 'creative' } }
    }
    return write(name, params)
  }
}
