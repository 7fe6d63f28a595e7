#!/usr/bin/env bash
# Make sure Graphviz's `dot` program is on PATH (the Python `graphviz` package only wraps it).
set -u
command -v dot >/dev/null 2>&1 && exit 0
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "Installing Graphviz (dot) with apt-get ..."
    (apt-get install -y graphviz || (apt-get update && apt-get install -y graphviz)) && exit 0
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "Installing Graphviz (dot) with sudo apt-get ..."
    (sudo apt-get install -y graphviz || (sudo apt-get update && sudo apt-get install -y graphviz)) && exit 0
  fi
fi
cat >&2 <<'MSG'
Graphviz's `dot` program is missing; the notebooks use it to draw the backward graph.
Install it with one of:
  Debian/Ubuntu:  sudo apt-get install -y graphviz
  macOS:          brew install graphviz
  conda:          conda install -c conda-forge graphviz
then run the make command again.
MSG
exit 1
