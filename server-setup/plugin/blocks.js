'use strict'
// Fast block access for the protocol: reads and writes go straight to chunk columns, and players
// get either a block_change (single blocks) or a resent chunk (bulk fills). This skips
// flying-squid's block-update queue, which is O(n^2) for big fills (G6); no physics runs for these
// blocks.

const { Vec3 } = require('vec3')

const BULK_CHUNK_RESEND = 64 // above this many changed blocks in a column, resend the whole chunk

function columnKey (cx, cz) {
  return cx + ',' + cz
}

function makeBlocks (serv) {
  const world = () => serv.overworld

  function viewersOf (cx, cz) {
    const key = columnKey(cx, cz)
    return serv.players.filter(p => p.world === world() && p.loadedChunks && p.loadedChunks[key] !== undefined)
  }

  async function column (cx, cz) {
    return world().getColumn(cx, cz)
  }

  async function getStateId (x, y, z) {
    const col = await column(x >> 4, z >> 4)
    return col.getBlockStateId(new Vec3(x & 15, y, z & 15))
  }

  // Sets one block if it differs; returns true when something changed.
  async function setStateId (x, y, z, stateId) {
    const cx = x >> 4
    const cz = z >> 4
    const col = await column(cx, cz)
    const local = new Vec3(x & 15, y, z & 15)
    if (col.getBlockStateId(local) === stateId) return false
    col.setBlockStateId(local, stateId)
    world().queueSaving(cx, cz)
    const pos = new Vec3(x, y, z)
    for (const player of viewersOf(cx, cz)) player.sendBlock(pos, stateId)
    return true
  }

  // Reads the inclusive box in y, x, z order (y outermost, z innermost), mapping each state.
  async function readBox (min, max, mapState) {
    const columns = new Map()
    for (let cx = min.x >> 4; cx <= max.x >> 4; cx++) {
      for (let cz = min.z >> 4; cz <= max.z >> 4; cz++) columns.set(columnKey(cx, cz), await column(cx, cz))
    }
    const out = new Array((max.x - min.x + 1) * (max.y - min.y + 1) * (max.z - min.z + 1))
    const local = new Vec3(0, 0, 0)
    let i = 0
    for (let y = min.y; y <= max.y; y++) {
      local.y = y
      for (let x = min.x; x <= max.x; x++) {
        local.x = x & 15
        for (let z = min.z; z <= max.z; z++) {
          local.z = z & 15
          out[i++] = mapState(columns.get(columnKey(x >> 4, z >> 4)).getBlockStateId(local))
        }
      }
    }
    return out
  }

  // Fills the inclusive box with one state, column by column, skipping blocks that already match.
  async function fillBox (min, max, stateId) {
    const local = new Vec3(0, 0, 0)
    for (let cx = min.x >> 4; cx <= max.x >> 4; cx++) {
      for (let cz = min.z >> 4; cz <= max.z >> 4; cz++) {
        const col = await column(cx, cz)
        const changed = []
        const x0 = Math.max(min.x, cx * 16)
        const x1 = Math.min(max.x, cx * 16 + 15)
        const z0 = Math.max(min.z, cz * 16)
        const z1 = Math.min(max.z, cz * 16 + 15)
        for (let x = x0; x <= x1; x++) {
          local.x = x & 15
          for (let z = z0; z <= z1; z++) {
            local.z = z & 15
            for (let y = min.y; y <= max.y; y++) {
              local.y = y
              if (col.getBlockStateId(local) === stateId) continue
              col.setBlockStateId(local, stateId)
              changed.push(new Vec3(x, y, z))
            }
          }
        }
        if (changed.length === 0) continue
        world().queueSaving(cx, cz)
        for (const player of viewersOf(cx, cz)) {
          if (changed.length > BULK_CHUNK_RESEND) player.sendChunk(cx, cz, col)
          else for (const pos of changed) player.sendBlock(pos, stateId)
        }
      }
    }
  }

  return { getStateId, setStateId, readBox, fillBox }
}

module.exports = makeBlocks
