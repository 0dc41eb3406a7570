#!/usr/bin/env node
'use strict'
// Embedded creative Minecraft server (flying-squid) with the RaspberryJuice socket API.
// Prints one line containing READY once the game port and the API port both listen.
// SIGTERM / SIGINT: players are kicked, the world is saved, the process exits 0.

const path = require('path')
const { parseArgs } = require('util')

const DEFAULT_VERSION = '1.21.4'
const VIEW_DISTANCE = 8 // chunks; bots place up to about 128 blocks from spawn
const USAGE = `usage: node server.js [--host 127.0.0.1] [--mc-port 25565] [--api-port 4711]
                      [--world DIR] [--version ${DEFAULT_VERSION}] [--location relative|absolute]
                      [--chat escaped|raw] [--verbose] [--api-host 127.0.0.1] [--online-mode]
  --host        the address the game port listens on (the API listens on --api-host, default 127.0.0.1)
  --online-mode players must own the Minecraft account (checked with Mojang's session servers)
  --world DIR   persistent Anvil world (saved on stop); without it the world lives in memory
  --location    coordinates of the API: relative to the world spawn (RaspberryJuice's default) or absolute
  --chat        chat events with | and & escaped (default), or raw as upstream RaspberryJuice writes them
                (to test clients against upstream's ambiguous chat)`

function fail (message) {
  process.stderr.write(`server: ${message}\n`)
  process.exit(1)
}

function parseOptions () {
  let values
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        'api-host': { type: 'string', default: '127.0.0.1' },
        'online-mode': { type: 'boolean', default: false },
        'mc-port': { type: 'string', default: '25565' },
        'api-port': { type: 'string', default: '4711' },
        world: { type: 'string' },
        version: { type: 'string', default: DEFAULT_VERSION },
        location: { type: 'string', default: 'relative' },
        chat: { type: 'string', default: 'escaped' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false }
      }
    }))
  } catch (err) {
    fail(`${err.message}\n${USAGE}`)
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n')
    process.exit(0)
  }
  const port = (name) => {
    const n = Number(values[name])
    if (!Number.isInteger(n) || n < 0 || n > 65535) fail(`--${name} must be a port number, got ${values[name]}`)
    return n
  }
  if (!['relative', 'absolute'].includes(values.location.toLowerCase())) fail('--location must be relative or absolute')
  if (!['escaped', 'raw'].includes(values.chat)) fail('--chat must be escaped or raw')
  return {
    host: values.host,
    apiHost: values['api-host'],
    onlineMode: values['online-mode'],
    mcPort: port('mc-port'),
    apiPort: port('api-port'),
    world: values.world ? path.resolve(values.world) : undefined,
    version: values.version,
    location: values.location.toLowerCase(),
    chat: values.chat,
    verbose: values.verbose
  }
}

// flying-squid's log.js loads exit-hook, whose SIGTERM/SIGINT handlers exit at once, before the world
// is saved. Registering it first (same module instance) lets us remove those handlers for good.
function disarmExitHook () {
  try {
    require('exit-hook')(() => {})
  } catch {
    return
  }
  process.removeAllListeners('SIGTERM')
  process.removeAllListeners('SIGINT')
}

async function main () {
  const opts = parseOptions()
  disarmExitHook()
  const mcServer = require('flying-squid')
  const spawn = [0, 5, 0] // superflat: grass at y=4, so players stand at y=5
  const log = opts.verbose ? (...a) => process.stderr.write(a.join(' ') + '\n') : () => {}
  let serv
  try {
    serv = mcServer.createMCServer({
      host: opts.host,
      port: opts.mcPort,
      'online-mode': opts.onlineMode,
      version: opts.version,
      gameMode: 1,
      difficulty: 0,
      generation: { name: 'superflat', options: { seed: 1 } },
      worldFolder: opts.world,
      logging: false,
      noConsoleOutput: !opts.verbose,
      'max-players': 20,
      'view-distance': VIEW_DISTANCE,
      kickTimeout: 10000,
      'everybody-op': true,
      'max-entities': 100,
      'player-list-text': { header: 'blockref', footer: '' },
      motd: 'blockref embedded server',
      plugins: {
        [path.join(__dirname, 'plugin', 'fixes.js')]: { spawn, viewDistance: VIEW_DISTANCE },
        [path.join(__dirname, 'plugin', 'index.js')]: { host: opts.apiHost, port: opts.apiPort, location: opts.location, chat: opts.chat, spawn }
      },
      debug: log // G5: with a debug function flying-squid does not install process-wide crash handlers
    })
  } catch (err) {
    fail(err.message)
  }
  serv.on('error', (err) => fail(`game port ${opts.host}:${opts.mcPort}: ${err.code === 'EADDRINUSE' ? 'already in use' : err.message}`))

  let apiPort
  try {
    apiPort = await serv.raspberryJuice.ready
  } catch (err) {
    fail(`API port ${opts.apiHost}:${opts.apiPort}: ${err.code === 'EADDRINUSE' ? 'already in use' : err.message}`)
  }
  await serv.waitForReady(15000).catch(() => fail('flying-squid did not become ready within 15 s'))

  disarmExitHook()
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    const force = setTimeout(() => process.exit(1), 10000)
    try {
      await serv.raspberryJuice.close()
      await Promise.race([serv.quit('Server stopped'), new Promise(resolve => setTimeout(resolve, 3000))])
      for (const world of [serv.overworld]) {
        if (world.storageProvider) await world.waitSaving()
      }
    } catch (err) {
      process.stderr.write(`server: error while stopping: ${err.message}\n`)
    }
    clearTimeout(force)
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)

  const world = opts.world ? `world=${opts.world}` : 'world=memory'
  process.stdout.write(`READY mc=${serv.listeningPort} api=${apiPort} version=${opts.version} host=${opts.host} ` +
    `api-host=${opts.apiHost} online-mode=${opts.onlineMode} ` +
    `location=${opts.location} chat=${opts.chat} ${world}\n`)
}

main()
