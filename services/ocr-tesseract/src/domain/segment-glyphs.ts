/**
 * The digits seven-segment displays show, by the places lit (a top, b upper right, c lower right, d bottom, e lower
 * left, f upper left, g middle, in alphabetical order). Some makes draw 6 without its top, 9 without its bottom and
 * 7 with its upper left.
 */
export const GLYPHS = new Map<string, string>([
  ['abcdef', '0'], ['bc', '1'], ['abdeg', '2'], ['abcdg', '3'], ['bcfg', '4'], ['acdfg', '5'], ['acdefg', '6'],
  ['abc', '7'], ['abcdefg', '8'], ['abcdfg', '9'], ['cdefg', '6'], ['abcfg', '9'], ['abcf', '7'],
]);
