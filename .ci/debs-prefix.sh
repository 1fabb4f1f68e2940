# Sourced by the GPU scripts (.ci/gpu-*.sh), from the repository root: a GPU machine without the course's
# Debian packages gets their .deb files in .debs/; they are unpacked into $1, and -DCMAKE_PREFIX_PATH for
# them is appended to the array `extra`, which the caller has declared.
#   apt-get download doctest-dev libcli11-dev nlohmann-json3-dev        (the grader)
#   apt-get download libcpp-httplib-dev libcpp-httplib0.11 libsqlite3-dev libsqlite3-0 \
#                    libbrotli-dev libbrotli1 zlib1g-dev bubblewrap     (course-server and its sandbox)
# pkg-config finds cpp-httplib there (the build tree's RPATH then finds its shared library), and bwrap is
# on the PATH after the machine's own programs.
if compgen -G ".debs/*.deb" > /dev/null; then
  for f in .debs/*.deb; do dpkg -x "$f" "$1"; done
  extra+=(-DCMAKE_PREFIX_PATH="$1/usr")
  multiarch=$1/usr/lib/x86_64-linux-gnu
  export PKG_CONFIG_PATH=$multiarch/pkgconfig:$1/usr/share/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export PATH=$PATH:$1/usr/bin
  # The unpacked .pc files name /usr as their prefix: point them at where they were unpacked.
  for pc in "$multiarch"/pkgconfig/*.pc "$1"/usr/share/pkgconfig/*.pc; do
    [[ -f $pc ]] && sed -i "s|^prefix=/usr\$|prefix=$1/usr|" "$pc"
  done
fi
