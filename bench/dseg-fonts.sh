# Sourced by the scripts that draw seven-segment test media with the DSEG7 fonts of the npm package `dseg` (0.46.0,
# SIL OFL 1.1): sets `fonts` to the package's font folder, from the unpacked package named as $1 or, without it,
# from one packed from the npm registry into a temporary folder.
dseg_pkg="${1:-}"
if [ -z "$dseg_pkg" ]; then
  dseg_pkg="$(mktemp -d)"
  (cd "$dseg_pkg" && npm pack dseg@0.46.0 >/dev/null && tar xzf dseg-0.46.0.tgz)
  dseg_pkg="$dseg_pkg/package"
fi
fonts="$dseg_pkg/fonts"
