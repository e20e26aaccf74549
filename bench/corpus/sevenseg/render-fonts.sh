#!/usr/bin/env bash
# Renders the font-drawn displays of this corpus (font-*.png) from the DSEG7 fonts of the npm package `dseg`
# (0.46.0, SIL OFL 1.1), with ImageMagick (Debian's `imagemagick`). Each display is a glass panel with its unlit
# segments ("8" in a ghost colour) under the value, a label beside it, and for some a glow, blur, glare, noise,
# or a perspective. Usage: bench/corpus/sevenseg/render-fonts.sh [dir with the unpacked dseg package]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../../dseg-fonts.sh
source "$here/../../dseg-fonts.sh"
label_font=DejaVu-Sans-Bold

# display FILE FONT SIZE GHOST VALUE GLASS LIT UNLIT [EFFECT...]
# Draws one display of SIZE-point digits on a 960x540 page, ghost segments GHOST (all "8"s, same advance as VALUE).
display() {
  local file=$1 font=$2 size=$3 ghost=$4 value=$5 glass=$6 lit=$7 unlit=$8
  shift 8
  local w=$((${#ghost} * size * 9 / 10 + size)) h=$((size * 17 / 10))
  local x=$(((960 - w) / 2)) y=$(((540 - h) / 2))
  convert -size 960x540 xc:'#3a3d42' \
    -fill "$glass" -draw "roundrectangle $x,$y $((x + w)),$((y + h)) 12,12" \
    -font "$label_font" -pointsize 28 -fill '#d8d8d8' -annotate +$x+$((y - 16)) 'READING' \
    -font "$fonts/$font" -pointsize "$size" \
    -fill "$unlit" -annotate +$((x + size / 2))+$((y + size * 13 / 10)) "$ghost" \
    -fill "$lit" -annotate +$((x + size / 2))+$((y + size * 13 / 10)) "$value" \
    "$@" "$here/$file"
}

# glow: the lit strokes blurred and added back (an LED's halo).
glow=(\( +clone -blur 0x6 \) -compose screen -composite)

display font-lcd-classic.png DSEG7-Classic/DSEG7Classic-Regular.ttf 120 '88.88' '12.34' '#b7c0a8' '#1e211c' '#a6ae98'
display font-lcd-bolditalic.png DSEG7-Classic/DSEG7Classic-BoldItalic.ttf 110 '88.88' '-5.67' '#c4c9bb' '#15171a' '#b3b8aa'
display font-lcd-modern-blur.png DSEG7-Modern/DSEG7Modern-Regular.ttf 110 '8.888' '0.815' '#aab59c' '#232820' '#9ba68e' -blur 0x1.5
display font-lcd-light-clock.png DSEG7-Classic/DSEG7Classic-Light.ttf 130 '88:88' '12:45' '#d0d6c8' '#202020' '#c2c8ba'
display font-led-red.jpg DSEG7-Classic/DSEG7Classic-Bold.ttf 120 '888.8' '230.4' '#120404' '#ff2a1a' '#2a0a08' "${glow[@]}"
display font-led-green-italic.jpg DSEG7-Modern/DSEG7Modern-Italic.ttf 120 '88.88' '49.95' '#031006' '#39ff5a' '#0a2410' "${glow[@]}"
display font-led-blue.jpg DSEG7-Classic/DSEG7Classic-Regular.ttf 120 '8888' '1013' '#020814' '#3aa0ff' '#08182c' "${glow[@]}"
display font-led-amber-mini.jpg DSEG7-Classic-MINI/DSEG7ClassicMini-Bold.ttf 120 '8.888' '7.062' '#100800' '#ffae20' '#281a04' "${glow[@]}"
display font-lcd-perspective.png DSEG7-Classic/DSEG7Classic-Regular.ttf 100 '88.888' '31.416' '#b9c2ab' '#1c1f1a' '#aab29c' \
  -distort Perspective '0,0 40,30  960,0 900,0  0,540 0,540  960,540 960,500'
display font-led-red-perspective.jpg DSEG7-Classic/DSEG7Classic-Italic.ttf 120 '888.8' '-12.5' '#140404' '#ff3020' '#2c0c0a' "${glow[@]}" \
  -distort Perspective '0,0 0,40  960,0 960,0  0,540 20,500  960,540 940,540'
display font-lcd-glare.jpg DSEG7-Classic/DSEG7Classic-Bold.ttf 120 '888.8' '725.0' '#aeb8a0' '#1f231c' '#a0aa92' \
  \( -size 960x540 radial-gradient:'#ffffff'-'#000000' -level 55%,100% \) -compose screen -composite
display font-led-white-noise.jpg DSEG7-Modern/DSEG7Modern-Bold.ttf 120 '88:88' '09:30' '#050505' '#f0f0f0' '#1c1c1c' \
  "${glow[@]}" -attenuate 0.6 +noise Gaussian -quality 85
display font-lcd-small.png DSEG7-Classic/DSEG7Classic-Regular.ttf 36 '88.8' '45.6' '#b3bca6' '#1e211c' '#a4ac96'
display font-led-large.jpg DSEG7-Classic/DSEG7Classic-BoldItalic.ttf 220 '88.8' '98.6' '#100303' '#ff4030' '#280a08' "${glow[@]}"
display font-lcd-low-contrast.png DSEG7-Modern/DSEG7Modern-Regular.ttf 120 '88.88' '60.00' '#9aa08e' '#5c6154' '#939986' -blur 0x0.8
display font-lcd-jpeg.jpg DSEG7-Classic/DSEG7Classic-Italic.ttf 110 '888.88' '!47.25' '#c0c6b4' '#262a22' '#b2b8a6' -quality 60
