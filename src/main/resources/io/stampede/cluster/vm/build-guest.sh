#!/usr/bin/env bash
# The recipe of the VM lab's guest (stampede cluster lab --vm, cluster validate --vm). Any change to this file,
# or to init, makes the next run build a new guest. Usage: build-guest.sh DIR (an empty folder).
# DIR gets: vmlinuz, kernel-version, base.cpio (busybox + the modules that mount the root disk + init) and
# root.img (ext4, a debootstrap minbase of Debian bookworm with the real tools and the kernel's modules).
set -euo pipefail
out=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
cd "$out"
log() { echo "build-guest: $(date +%T) $*"; }

# Debian's stock kernel: the package linux-image-amd64 points at; fetched, never installed on this machine.
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [[ -z $kpkg ]]; then
  apt-get update -qq
  kpkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
fi
log "kernel package $kpkg"
mkdir -p dl kernel
(cd dl && apt-get download -q "$kpkg" >/dev/null)
dpkg-deb -x dl/*.deb kernel
kver=$(ls kernel/lib/modules)
cp kernel/boot/vmlinuz-"$kver" vmlinuz
echo "$kver" > kernel-version
depmod -b kernel "$kver"   # the .deb ships no modules.dep

mirror=$(grep -h -o -m1 'https\?://[^ ]*debian/\?$' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
  /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
log "debootstrap bookworm from $mirror"
debootstrap --variant=minbase \
  --include=keepalived,ipvsadm,nginx-light,haproxy,nftables,arptables,iproute2,kmod,procps,curl,busybox-static \
  bookworm root "$mirror" > debootstrap.log 2>&1 || { tail -20 debootstrap.log; exit 1; }
rm -rf root/var/cache/apt/archives/*.deb root/var/lib/apt/lists/*

# Only the module trees a lab needs (netfilter, IPVS, bridge, veth, crypto helpers): the whole set is ~400 MB.
mkdir -p root/lib/modules/"$kver"/kernel
for d in net lib crypto arch drivers/net; do
  mkdir -p "root/lib/modules/$kver/kernel/$(dirname $d)"
  cp -a "kernel/lib/modules/$kver/kernel/$d" "root/lib/modules/$kver/kernel/$d"
done
rm -rf root/lib/modules/"$kver"/kernel/drivers/net/{wireless,ethernet,can,usb,wwan,ieee802154}
cp kernel/lib/modules/"$kver"/modules.{order,builtin,builtin.modinfo} root/lib/modules/"$kver"/
depmod -b root "$kver"

# The initramfs: busybox, the modules that reach the virtio disk and ext4 in load order, and init.
mkdir -p initramfs/bin initramfs/mods
cp root/bin/busybox initramfs/bin/busybox
: > initramfs/modules.list
for m in crc32c_generic virtio_pci virtio_blk ext4; do
  modprobe -d kernel -S "$kver" --show-depends "$m" | awk '$1 == "insmod" {print $2}' | while read -r ko; do
    base=$(basename "$ko")
    if ! grep -qx "/mods/$base" initramfs/modules.list; then
      cp "$ko" "initramfs/mods/$base"
      echo "/mods/$base" >> initramfs/modules.list
    fi
  done
done
install -m 0755 "$here/init" initramfs/init
(cd initramfs && find . | cpio -o -H newc --quiet) > base.cpio
log "initramfs $(du -h base.cpio | cut -f1), $(wc -l < initramfs/modules.list) modules"

mkfs.ext4 -q -F -L stlroot -d root root.img 1200M
log "root.img $(du -h root.img | cut -f1) used, kernel $kver"
rm -rf dl kernel root initramfs
