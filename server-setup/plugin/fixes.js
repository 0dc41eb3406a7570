'use strict'
// Workarounds for known flying-squid 1.12.0 bugs (see server-setup/README.md, "Known bugs").
// Loaded as an external plugin; everything that replaces a built-in waits for `pluginsReady`,
// because external plugins run before most built-ins (G4).

const { Vec3 } = require('vec3')

const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator']

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
  })
}

module.exports.player = function (player) {
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
