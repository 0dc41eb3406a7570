'use strict'
// Legacy (pre-1.13) numeric block ids with data <-> block states of the running version.
// Built from minecraft-data's flattening table (data/pc/common/legacy.json), so RaspberryJuice
// clients keep talking in `id,data` while the server stores modern block states.

const minecraftData = require('minecraft-data')

// Blocks renamed after the flattening table was written (legacy name -> current name).
const RENAMES = {
  grass_path: 'dirt_path', // 1.17
  grass: 'short_grass', // 1.20.3
  sign: 'oak_sign', // 1.14
  wall_sign: 'oak_wall_sign' // 1.14
}

function parseKey (text) {
  // 'minecraft:oak_log[axis=x]' -> { name: 'oak_log', props: { axis: 'x' } }
  const match = /^minecraft:([a-z0-9_]+)(?:\[(.*)\])?$/.exec(text)
  if (!match) return null
  const props = {}
  if (match[2]) {
    for (const pair of match[2].split(',')) {
      const [k, v] = pair.split('=')
      props[k] = v
    }
  }
  return { name: match[1], props }
}

// Keeps only the properties whose value exists in this version (walls went from booleans to none/low/tall).
function validProps (block, props) {
  const valid = {}
  for (const state of block.states || []) {
    const value = props[state.name]
    if (value === undefined) continue
    if (state.type === 'enum' && !state.values.includes(value)) continue
    if (state.type === 'bool' && value !== 'true' && value !== 'false') continue
    valid[state.name] = value
  }
  return valid
}

/**
 * Returns { toState(id, data) -> stateId | null, toLegacy(stateId) -> [id, data] } for a registry.
 * toState falls back to data 0 when the data value is unknown for that id, and returns null for an
 * unknown id. toLegacy gives the exact legacy key when one exists, otherwise the first key of the
 * same block, otherwise [0, 0] (blocks added after 1.12 have no legacy id).
 */
function makeLegacy (registry) {
  if (!registry.supportFeature('theFlattening')) {
    return {
      toState: (id, data) => (registry.blocks[id] ? (id << 4) | (data & 15) : null),
      toLegacy: (stateId) => [stateId >> 4, stateId & 15]
    }
  }
  const Block = require('prismarine-block')(registry)
  const legacyToState = new Map() // 'id:data' -> stateId
  const stateToLegacy = new Map() // stateId -> [id, data]
  const blockToLegacy = new Map() // block name -> first [id, data]
  const table = minecraftData.legacy.pc.blocks
  for (const key of Object.keys(table)) {
    const parsed = parseKey(table[key])
    if (!parsed) continue
    const name = registry.blocksByName[parsed.name] ? parsed.name : RENAMES[parsed.name]
    const block = name && registry.blocksByName[name]
    if (!block) continue
    const props = { ...Block.fromStateId(block.defaultState, 0).getProperties(), ...validProps(block, parsed.props) }
    for (const k of Object.keys(props)) props[k] = String(props[k])
    let stateId
    try {
      stateId = Block.fromProperties(name, props, 0).stateId
    } catch {
      continue
    }
    if (stateId < block.minStateId || stateId > block.maxStateId) continue
    const legacy = key.split(':').map(Number)
    legacyToState.set(key, stateId)
    if (!stateToLegacy.has(stateId)) stateToLegacy.set(stateId, legacy)
    if (!blockToLegacy.has(name)) blockToLegacy.set(name, legacy)
  }
  return {
    toState (id, data) {
      const exact = legacyToState.get(id + ':' + data)
      if (exact !== undefined) return exact
      const plain = legacyToState.get(id + ':0')
      return plain === undefined ? null : plain
    },
    toLegacy (stateId) {
      const exact = stateToLegacy.get(stateId)
      if (exact) return exact
      const block = registry.blocksByStateId[stateId]
      return (block && blockToLegacy.get(block.name)) || [0, 0]
    }
  }
}

module.exports = makeLegacy
