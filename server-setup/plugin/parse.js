'use strict'
// Argument parsing with the semantics of RaspberryJuice's Java code (String.split, parseDouble,
// parseInt, parseByte), so the same inputs succeed or fail as they do there.

class CommandError extends Error {}

// Java's String.split(","): trailing empty strings are dropped, but "" stays [""].
function splitArgs (text) {
  const parts = text.split(',')
  if (parts.length === 1) return parts
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop()
  return parts
}

const DOUBLE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/

// Double.parseDouble: surrounding whitespace allowed, optional f/d suffix, NaN and Infinity.
function parseDouble (text) {
  const trimmed = String(text ?? '').trim()
  if (!DOUBLE.test(trimmed)) throw new CommandError(`not a number: ${text}`)
  return Number(trimmed.replace(/[fFdD]$/, ''))
}

// Integer.parseInt: digits with an optional sign, 32-bit range, no whitespace.
function parseInt32 (text) {
  if (!/^[+-]?\d+$/.test(text ?? '')) throw new CommandError(`not an integer: ${text}`)
  const value = Number(text)
  if (value < -2147483648 || value > 2147483647) throw new CommandError(`out of range: ${text}`)
  return value
}

// Byte.parseByte: an integer in -128..127.
function parseByte (text) {
  const value = parseInt32(text)
  if (value < -128 || value > 127) throw new CommandError(`out of byte range: ${text}`)
  return value
}

// (int) Double.parseDouble(s): truncation toward zero; NaN becomes 0; clamped to int range.
function parseBlockCoord (text) {
  const value = parseDouble(text)
  if (Number.isNaN(value)) return 0
  return Math.max(-2147483648, Math.min(2147483647, Math.trunc(value)))
}

function need (args, count) {
  if (args.length < count) throw new CommandError(`expected ${count} arguments, got ${args.length}`)
}

// Java's Double.toString for the values we print: integral doubles keep a ".0".
function formatDouble (value) {
  if (Number.isInteger(value) && Math.abs(value) < 1e7) return value.toFixed(1)
  return String(value)
}

module.exports = { CommandError, splitArgs, parseDouble, parseInt32, parseByte, parseBlockCoord, need, formatDouble }
