#!/usr/bin/env bash
# make-sample.sh — regenerates mocks/media/sample.mp4
#
# What it makes: a tiny, real, playable MP4 (2 s, 160x90, 10 fps, ffmpeg
# "testsrc2" test pattern, H.264 / yuv420p, no audio, faststart) of a few KB.
#
# Why: the mock video-generation service serves these exact bytes from its
# content endpoint as the "finished video" of a completed task (see §4.4 of
# the service document). The committed sample.mp4 is the source of truth;
# ffmpeg is only needed to regenerate it, not to run the mock or the tests.
#
# Output is made as reproducible as ffmpeg allows: no metadata, bitexact
# muxer/encoder flags, single-threaded encode, and a fixed encoder setup.
#
# Usage: bash mocks/media/make-sample.sh
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/sample.mp4"
tmp="$(mktemp "$here/.sample.XXXXXX.mp4")"
trap 'rm -f "$tmp"' EXIT

command -v ffmpeg >/dev/null 2>&1 || {
  echo "make-sample.sh: ffmpeg not found (apt-get install -y ffmpeg)" >&2
  exit 1
}

ffmpeg -nostdin -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=160x90:rate=10:duration=2" \
  -an \
  -c:v libx264 -preset veryslow -crf 40 -pix_fmt yuv420p \
  -threads 1 -x264-params "threads=1" \
  -movflags +faststart \
  -map_metadata -1 -fflags +bitexact -flags:v +bitexact \
  -f mp4 "$tmp"

chmod 0644 "$tmp"
mv -f "$tmp" "$out"
trap - EXIT
echo "wrote $out ($(wc -c <"$out") bytes)"
