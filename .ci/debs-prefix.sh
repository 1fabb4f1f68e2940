# Sourced by the GPU scripts (.ci/gpu-*.sh), from the repository root: a GPU machine without the course's
# Debian packages gets their .deb files in .debs/ (apt-get download doctest-dev libcli11-dev
# nlohmann-json3-dev); they are unpacked into $1 and -DCMAKE_PREFIX_PATH for them is appended to the
# array `extra`, which the caller has declared.
if compgen -G ".debs/*.deb" > /dev/null; then
  for f in .debs/*.deb; do dpkg -x "$f" "$1"; done
  extra+=(-DCMAKE_PREFIX_PATH="$1/usr")
fi
