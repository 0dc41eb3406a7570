'use strict'
// One API connection: splits the byte stream into lines like Java's readLine (\n, \r or \r\n),
// runs its commands strictly one after another and writes the replies in the same order.
// It keeps its own event queues, filled by the hub for every connection that is open.

const { CommandError, splitArgs } = require('./parse')

class Session {
  constructor (socket, hub) {
    this.socket = socket
    this.hub = hub
    this.origin = null // fixed on the first command, like RaspberryJuice's first tick
    this.currentPlayer = null // the sticky "host" player of player.* commands
    this.attached = false // sent a command: from then on it takes the events (see backlog.js)
    this.ended = false // the client sent its last byte (end of stream or reset)
    this.queues = { hits: [], chats: [], places: [], breaks: [] }
    this.pending = []
    this.partial = ''
    this.skipLF = false
    this.busy = false
    this.closed = false
    socket.setNoDelay(true)
    socket.setEncoding('utf8')
    socket.on('data', (text) => this.receive(text))
    // The client sends no more (a killed client's socket may be closed some moments later): it polls no
    // more events, so chat from now on is kept for the next client (see backlog.js).
    socket.on('end', () => { this.ended = true })
    socket.on('error', () => { this.ended = true }) // a reset by the client is a normal end; 'close' follows
    socket.on('close', () => this.close())
  }

  receive (text) {
    let start = 0
    for (let i = 0; i < text.length; i++) {
      const c = text[i]
      if (this.skipLF) {
        this.skipLF = false
        if (c === '\n') {
          start = i + 1
          continue
        }
      }
      if (c === '\n' || c === '\r') {
        this.pending.push(this.partial + text.slice(start, i))
        this.partial = ''
        start = i + 1
        this.skipLF = c === '\r'
      }
    }
    this.partial += text.slice(start)
    this.pump()
  }

  async pump () {
    if (this.busy) return
    this.busy = true
    const replies = []
    while (this.pending.length > 0) {
      const reply = await this.handleLine(this.pending.shift())
      if (reply !== undefined) replies.push(reply + '\n')
      if (replies.length >= 512) this.write(replies.splice(0))
    }
    this.write(replies)
    this.busy = false
  }

  write (replies) {
    if (replies.length === 0 || this.closed || this.socket.destroyed) return
    this.socket.write(replies.join(''))
  }

  // Returns the reply line, or undefined when RaspberryJuice would send nothing.
  async handleLine (line) {
    const open = line.indexOf('(')
    // RaspberryJuice throws outside its try/catch here: no reply at all.
    if (open < 0 || open + 1 > line.length - 1) return undefined
    const name = line.slice(0, open)
    const args = splitArgs(line.slice(open + 1, line.length - 1))
    if (this.origin === null) this.origin = this.hub.origin()
    if (!this.attached && !this.ended) {
      this.attached = true
      this.hub.attach(this)
    }
    const command = this.hub.commands[name]
    if (!command) {
      this.hub.log(`${name} is not supported.`)
      return 'Fail'
    }
    try {
      return await command(this, args)
    } catch (err) {
      if (!(err instanceof CommandError)) this.hub.log(`error handling ${name}: ${err.stack || err}`)
      return 'Fail'
    }
  }

  push (kind, record) {
    if (!this.closed) this.queues[kind].push(record)
  }

  drain (kind, keep = () => true) {
    const queue = this.queues[kind]
    const taken = queue.filter(keep)
    this.queues[kind] = queue.filter(record => !keep(record))
    return taken
  }

  close () {
    if (this.closed) return
    this.closed = true
    this.hub.sessions.delete(this)
  }
}

module.exports = Session
