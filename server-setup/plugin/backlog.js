'use strict'
// Chat typed while no API client is attached (a referee restarting, or reconnecting to a server that has
// just restarted). RaspberryJuice's event queues are per connection and start empty, so such a line would
// reach nobody: here it is kept, at most MAX_LINES of them for KEEP_MS, and handed to the next connection
// that sends a command (a port probe that connects and sends nothing takes none). Lines of players who have
// left by then are dropped (nobody to answer, and their entity id names nobody).

const KEEP_MS = 60000
const MAX_LINES = 100

class Backlog {
  constructor (online, now = Date.now) {
    this.online = online // () => the entity ids of the players online now
    this.now = now
    this.kept = [] // { record, at }
  }

  // A chat record broadcast to the open sessions; kept unless one of them is attached.
  offer (record, sessions) {
    for (const session of sessions) if (session.attached && !session.ended) return
    this.kept.push({ record, at: this.now() })
    if (this.kept.length > MAX_LINES) this.kept.shift()
  }

  // The lines kept for a session attaching now, oldest first, without those it already holds.
  take (held) {
    const fresh = this.now() - KEEP_MS
    const online = new Set(this.online())
    const taken = this.kept.filter(({ record, at }) => at >= fresh && online.has(record.entityId) && !held.includes(record))
    this.kept = []
    return taken.map(({ record }) => record)
  }
}

module.exports = { Backlog, KEEP_MS, MAX_LINES }
