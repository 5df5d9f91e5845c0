#!/usr/bin/env bash
# Draws the sample images in data/images/ (charts, shapes, a diagram, a scene)
# with ImageMagick and DejaVu fonts: apt-get install imagemagick fonts-dejavu-core.
# The images are committed; run this only to change them.
set -euo pipefail
cd "$(dirname "$0")/../data/images"
FONT=DejaVu-Sans
BOLD=DejaVu-Sans-Bold

# Bar chart: quarterly sales, Q3 highest (PNG).
convert -size 360x240 xc:white -font $FONT -pointsize 13 \
  -stroke black -draw "line 40,200 340,200" -draw "line 40,20 40,200" -stroke none \
  -fill '#4e79a7' -draw "rectangle 60,140 110,200" -draw "rectangle 130,110 180,200" \
  -fill '#e15759' -draw "rectangle 200,50 250,200" -fill '#4e79a7' -draw "rectangle 270,120 320,200" \
  -fill black -draw "text 75,218 'Q1'" -draw "text 145,218 'Q2'" -draw "text 215,218 'Q3'" -draw "text 285,218 'Q4'" \
  -draw "text 72,134 '40'" -draw "text 142,104 '60'" -draw "text 212,44 '95'" -draw "text 282,114 '52'" \
  -font $BOLD -draw "text 70,16 'Sales 2024 by quarter (k\$)'" -depth 8 bar-chart.png

# Line chart: temperatures rising through the week (JPEG).
convert -size 360x240 xc:white -font $FONT -pointsize 12 \
  -stroke black -draw "line 40,200 340,200" -draw "line 40,20 40,200" \
  -stroke '#f28e2b' -strokewidth 3 -fill none \
  -draw "polyline 60,170 105,160 150,140 195,120 240,100 285,80 330,60" -strokewidth 1 -stroke none -fill black \
  -draw "text 50,218 'Mon'" -draw "text 95,218 'Tue'" -draw "text 140,218 'Wed'" -draw "text 185,218 'Thu'" \
  -draw "text 232,218 'Fri'" -draw "text 277,218 'Sat'" -draw "text 320,218 'Sun'" \
  -draw "text 8,174 '12°C'" -draw "text 8,64 '24°C'" \
  -font $BOLD -draw "text 90,16 'Daily high temperature'" -quality 85 temperature.jpg

# Shapes: a red circle, a blue square, a green triangle, labelled (GIF).
convert -size 360x200 xc:white -font $FONT -pointsize 14 \
  -fill '#d62728' -draw "circle 70,90 70,40" -fill '#1f77b4' -draw "rectangle 140,45 230,135" \
  -fill '#2ca02c' -draw "polygon 300,40 250,135 350,135" \
  -fill black -draw "text 45,170 'circle'" -draw "text 160,170 'square'" -draw "text 265,170 'triangle'" shapes.gif

# Scene: a red car in front of a blue house, sun in the sky (WebP).
convert -size 360x240 xc:'#cfe8ff' -font $FONT -pointsize 13 \
  -fill '#7fbf7f' -draw "rectangle 0,190 360,240" -fill '#ffd700' -draw "circle 310,45 310,20" \
  -fill '#2f5da8' -draw "rectangle 40,90 170,190" -fill '#8b4513' -draw "polygon 30,90 105,40 180,90" \
  -fill white -draw "rectangle 95,140 120,190" \
  -fill '#d62728' -draw "roundrectangle 200,150 330,190 12,12" -draw "rectangle 225,130 300,155" \
  -fill black -draw "circle 230,192 230,180" -draw "circle 300,192 300,180" \
  -draw "text 75,215 'blue house'" -draw "text 235,215 'red car'" -quality 80 street-scene.webp

# Diagram: load → score → report, as a 24-bit BMP.
convert -size 380x120 xc:white -font $FONT -pointsize 14 -stroke black -fill '#eef3fb' \
  -draw "roundrectangle 10,35 110,85 8,8" -draw "roundrectangle 140,35 240,85 8,8" -draw "roundrectangle 270,35 370,85 8,8" \
  -fill black -draw "line 110,60 140,60" -draw "line 240,60 270,60" \
  -draw "polygon 140,60 132,55 132,65" -draw "polygon 270,60 262,55 262,65" -stroke none \
  -draw "text 22,65 '1. Load'" -draw "text 150,65 '2. Score'" -draw "text 278,65 '3. Report'" \
  -draw "text 110,110 'evaluation pipeline'" BMP3:pipeline.bmp

# Stop sign, small, to be inlined as a data URI (PNG).
convert -size 64x64 xc:white -fill '#c00000' \
  -draw "polygon 20,2 44,2 62,20 62,44 44,62 20,62 2,44 2,20" \
  -fill white -font $BOLD -pointsize 15 -gravity center -draw "text 0,0 'STOP'" -strip -depth 8 stop-sign.png
