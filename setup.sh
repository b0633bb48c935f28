#!/bin/sh
# setup.sh — from a fresh Debian machine to a built collsim.
#   ./setup.sh            install the Debian packages, bootstrap, configure, build
#   SKIP_APT=1 ./setup.sh the same without apt-get (packages already there)
# Extra configure arguments may follow, e.g. ./setup.sh --enable-werror
set -e
cd "$(dirname "$0")"

PACKAGES="build-essential autoconf automake libtool pkg-config \
libsimgrid-dev libglib2.0-dev check libjson-glib-dev libcairo2-dev valgrind \
libopenmpi-dev openmpi-bin fonts-dejavu-core parallel libboost-context-dev"

if [ -z "${SKIP_APT:-}" ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -q --no-install-recommends $PACKAGES
fi

./bootstrap
if [ ! -f Makefile ]; then
    ./configure "$@"
fi
make -j"$(nproc)"
