# Sourced by scripts/run and scripts/test (they share .venv): `make_venv DIR` creates the venv DIR
# with the system Python if it is missing.
#
# picamera2 (the Pi camera) comes only from Raspberry Pi OS's apt (python3-picamera2), never from
# PyPI: when the system Python can import it, the venv is made with --system-site-packages so it
# sees the system's packages (else `--camera pi` fails and `--camera auto` falls back); elsewhere
# the venv stays isolated. A venv made before picamera2 was installed is switched over in place
# (venv rewrites its pyvenv.cfg and keeps what is installed in it).
make_venv() {
  local dir=$1 python site=()
  python=$(command -v python3.11 || command -v python3)
  if "$python" -c "import picamera2" >/dev/null 2>&1; then site=(--system-site-packages); fi
  if [ ! -x "$dir/bin/python" ]; then
    "$python" -m venv "${site[@]}" "$dir"
  elif [ ${#site[@]} -gt 0 ] && ! grep -qx "include-system-site-packages = true" "$dir/pyvenv.cfg"
  then
    "$python" -m venv "${site[@]}" --without-pip "$dir"  # (its pip is there already)
  fi
}
