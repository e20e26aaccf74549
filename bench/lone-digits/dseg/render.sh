#!/usr/bin/env bash
# Renders the lone digits of this folder (<style>-<digit>.jpg) from the DSEG7 fonts of the npm package `dseg`
# (0.46.0, SIL OFL 1.1), with ImageMagick (Debian's `imagemagick`): one digit 0-9 filling a 150x180 frame of glass,
# over the unlit segments of an 8 in a ghost colour, in nine styles (LCD and LED, italic, glow, blur, perspective,
# JPEG at quality 60). Usage: bench/lone-digits/dseg/render.sh [dir with the unpacked dseg package]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../../dseg-fonts.sh
source "$here/../../dseg-fonts.sh"

# style NAME FONT GLASS LIT UNLIT [EFFECT...]
style() {
  local name=$1 font=$2 glass=$3 lit=$4 unlit=$5
  shift 5
  for d in 0 1 2 3 4 5 6 7 8 9; do
    convert -size 150x180 xc:"$glass" -font "$fonts/$font" -pointsize 130 -gravity center \
      -fill "$unlit" -annotate +0+0 8 -fill "$lit" -annotate +0+0 "$d" -quality 90 "$@" "$here/$name-$d.jpg"
  done
}

# glow: the lit strokes blurred and added back (an LED's halo).
glow=(\( +clone -blur 0x5 \) -compose screen -composite)

style lcd-classic DSEG7-Classic/DSEG7Classic-Regular.ttf '#b7c0a8' '#1e211c' '#a9b29a'
style lcd-bolditalic DSEG7-Classic/DSEG7Classic-BoldItalic.ttf '#c4c9bb' '#15171a' '#b3b8aa'
style lcd-modern-blur DSEG7-Modern/DSEG7Modern-Regular.ttf '#aab59c' '#232820' '#9ba68e' -blur 0x2
style lcd-light DSEG7-Classic/DSEG7Classic-Light.ttf '#d0d6c8' '#202020' '#c2c8ba'
style lcd-perspective DSEG7-Classic/DSEG7Classic-Regular.ttf '#b9c2ab' '#1c1f1a' '#aab29c' \
  -distort Perspective '0,0 10,8  150,0 140,0  0,180 0,180  150,180 150,170'
style led-red DSEG7-Classic/DSEG7Classic-Bold.ttf '#120404' '#ff2a1a' '#2a0a08' "${glow[@]}"
style led-green-italic DSEG7-Modern/DSEG7Modern-Italic.ttf '#031006' '#39ff5a' '#0a2410' "${glow[@]}"
style led-blue-mini DSEG7-Classic-MINI/DSEG7ClassicMini-Bold.ttf '#020814' '#3aa0ff' '#08182c' "${glow[@]}"
style led-amber-jpeg60 DSEG7-Classic/DSEG7Classic-Regular.ttf '#100800' '#ffae20' '#281a04' "${glow[@]}" -quality 60
