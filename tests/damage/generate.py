#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Damaged variants of a real dump, seeded and reproducible.

From one capture (kdump-compressed, as makedumpfile writes it, or ELF, as
QEMU's dump-guest-memory or /proc/vmcore give it), makes the files a user
with a short or corrupted copy would have: truncations at many offsets,
header fields set to absurd values, flipped bytes in the first 64 KiB,
zeroed blocks, a cleared or set page bitmap bit, damaged page descriptors,
bad VMCOREINFO text, and files that are not dumps at all.  The same dump
and seed always give the same variants, byte for byte.

  generate.py [--seed N] list DUMP             the variants, one a line: NAME<TAB>what
  generate.py [--seed N] make DUMP NAME PATH   write one variant to PATH
  generate.py [--seed N] all DUMP DIR          write every variant into DIR

sweep.py edits one working copy in place (Workbench), so a sweep needs room
for one copy of the dump, and holes stay holes.
"""
import argparse
import ctypes
import os
import random
import re
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import elfcore  # noqa: E402  (tests/elfcore.py: the ELF program headers)

FIRST = 64 << 10  # the flips stay in the first 64 KiB
KTEXT = 0xffffffff80000000  # x86_64's __START_KERNEL_map
PAGE = 4096
# the variables whose SYMBOL() lines are exchanged, and the kallsyms entries
PAIRS = (("oops_limit", "warn_limit"), ("oops_count", "warn_count"), ("oops_count", "oops_limit"),
         ("panic_on_oops", "panic_on_warn"), ("warn_count", "tainted_mask"))
# the SYMBOL() lines every 6.x kernel has (a stock kernel's VMCOREINFO has no
# variable's): the tables the variables are found through
TABLES = ("kallsyms_offsets", "kallsyms_relative_base", "kallsyms_names", "kallsyms_markers",
          "kallsyms_token_table", "kallsyms_token_index", "kallsyms_num_syms")
TABLE_PAIRS = (("kallsyms_names", "kallsyms_markers"), ("kallsyms_offsets", "kallsyms_token_index"),
               ("kallsyms_token_table", "kallsyms_token_index"), ("kallsyms_offsets", "kallsyms_names"))


def fail(msg):
    sys.exit("generate.py: error: " + msg)


class Dump:
    """What the variants need to know of the original."""

    def __init__(self, path):
        self.path = path
        self.size = os.path.getsize(path)
        with open(path, "rb") as f:
            self.head = f.read(1 << 20)
        if self.head[:4] == b"\x7fELF":
            self.fmt = "elf"
            self._elf()
        elif self.head[:8] in (b"KDUMP   ", b"DISKDUMP"):
            self.fmt = "kdump"
            self._kdump()
        else:
            fail(f"{path} is neither an ELF nor a kdump-compressed dump")
        self._vmcoreinfo()

    def read(self, off, n):
        with open(self.path, "rb") as f:
            f.seek(off)
            return f.read(n)

    def _kdump(self):
        h = self.head
        self.block = struct.unpack_from("<I", h, 428)[0]
        self.sub_hdr = struct.unpack_from("<i", h, 432)[0]
        self.bitmap_blocks = struct.unpack_from("<I", h, 436)[0]
        self.max_mapnr = struct.unpack_from("<I", h, 440)[0]
        self.sub = self.block
        self.bitmap = (1 + self.sub_hdr) * self.block
        self.bitmap_bytes = self.bitmap_blocks * self.block
        self.bitmap2 = self.bitmap + self.bitmap_bytes // 2
        self.descs = self.bitmap + self.bitmap_bytes
        self.dump_level = struct.unpack_from("<i", h, self.sub + 8)[0]
        self.note_off, self.note_size = struct.unpack_from("<QQ", h, self.sub + 48)
        bm2 = self.read(self.bitmap2, self.bitmap_bytes // 2)
        bm1 = self.read(self.bitmap, self.bitmap_bytes // 2)
        self.set_bits = [i for i in range(len(bm2) * 8) if bm2[i // 8] >> (i % 8) & 1]
        self.clear_bits = [i for i in range(min(len(bm2) * 8, self.max_mapnr))
                           if not bm2[i // 8] >> (i % 8) & 1 and bm1[i // 8] >> (i % 8) & 1]
        self.bm1, self.bm2 = bm1, bm2

    def _elf(self):
        try:
            self.phoff, _, self.phnum = elfcore.table(self.head)
            self.phdrs = elfcore.phdrs(self.head)
        except (ValueError, struct.error) as e:
            fail(f"{self.path}: its program headers cannot be read: {e}")
        notes = [p for p in self.phdrs if p["type"] == 4]
        self.note_off = notes[0]["off"] if notes else 0
        self.note_size = sum(p["filesz"] for p in notes)

    def _vmcoreinfo(self):
        """Where the VMCOREINFO text is in the file, and its lines."""
        notes = self.read(self.note_off, min(self.note_size, 16 << 20)) if self.note_size else b""
        at = notes.find(b"VMCOREINFO\0")
        self.vmci_at = None
        self.vmci = b""
        if at >= 12:
            namesz, descsz = struct.unpack_from("<II", notes, at - 12)
            start = at + ((namesz + 3) & ~3)
            self.vmci_at = self.note_off + start
            self.vmci = notes[start:start + descsz]
        self.vmci_lines = dict(re.findall(rb"^([^=\n]+)=([^\n]*)$", self.vmci, re.M))

    def symbol(self, name):
        v = self.vmci_lines.get(b"SYMBOL(%s)" % name.encode())
        return int(v, 16) if v else None

    def excluded_image_vaddr(self):
        """A kernel-image address in a page makedumpfile left out, or None."""
        if self.fmt != "kdump":
            return None
        stext = self.symbol("_stext")
        phys_base = self.vmci_lines.get(b"NUMBER(phys_base)")
        if stext is None or phys_base is None:
            return None
        phys_base = int(phys_base)
        start = ((stext - KTEXT + phys_base) % (1 << 64)) // 4096
        for pfn in range(start, start + (64 << 20) // 4096):
            if pfn in self._clear_set:
                return (pfn * 4096 + KTEXT - phys_base + 0x40) % (1 << 64)
        return None

    def pfn_of(self, vaddr):
        """The pfn of a kernel-image address (where .data, .bss and kallsyms are)."""
        phys_base = self.vmci_lines.get(b"NUMBER(phys_base)")
        if phys_base is None or not KTEXT <= vaddr < KTEXT + (1 << 30):
            return None
        return ((vaddr - KTEXT + int(phys_base)) % (1 << 64)) // PAGE

    def elf_offset(self, pfn):
        """File offset of a page of an ELF dump, or None."""
        return elfcore.file_offset(getattr(self, "phdrs", []), pfn * PAGE)

    @property
    def _clear_set(self):
        if not hasattr(self, "_cs"):
            self._cs = set(self.clear_bits)
        return self._cs


def variants(d, seed, addrs=None):
    """(name, what, recipe) for every variant of d; a recipe is a list of edits.

    addrs ({variable: address}, from a report of the original dump) adds the
    variants that damage the pages holding the variables; their recipes edit
    the pages in memory ("page"), which RawPages maps into the file."""
    rnd = random.Random(seed)
    out = []

    def add(name, what, *edits):
        out.append((name, what, list(edits)))

    # --- files that are not dumps ---
    add("type-empty", "an empty file", ("type", "empty"))
    add("type-directory", "a directory", ("type", "directory"))
    add("type-fifo", "a FIFO nobody writes to", ("type", "fifo"))
    add("type-sparse", "a sparse file of the dump's size, all holes", ("type", "sparse"))
    add("type-text", "a text file", ("type", "text"))
    add("type-devnull", "a character device", ("type", "devnull"))
    add("type-symlink", "a symbolic link to the dump (reads as the dump)", ("type", "symlink"))

    # --- truncations ---
    cuts = {1, 7, 8, 12, 63, 64, 100, 463, 464, 512, 4095, 4096, 4097, 8192, 32768, 65536}
    cuts |= {d.size // 4, d.size // 2, d.size * 3 // 4, d.size - 4096, d.size - 1}
    if d.fmt == "kdump":
        cuts |= {d.bitmap, d.bitmap + 1, d.bitmap + d.bitmap_bytes // 4, d.bitmap2,
                 d.descs - 1, d.descs, d.descs + 24 * 10, d.descs + 24 * len(d.set_bits) // 2,
                 d.descs + 24 * len(d.set_bits), d.note_off + 8, d.note_off + d.note_size // 2}
    else:
        cuts |= {d.phoff + 10, d.phoff + 56 * d.phnum - 1, d.note_off + 8,
                 d.note_off + d.note_size // 2}
        cuts |= {p["off"] + p["filesz"] // 2 for p in d.phdrs if p["type"] == 1}
    cuts |= {rnd.randrange(1, d.size) for _ in range(10)}
    for c in sorted(x for x in cuts if 0 < x < d.size):
        add(f"cut-{c}", f"the first {c} bytes", ("truncate", c))

    # --- header fields ---
    if d.fmt == "kdump":
        fields = [
            ("block_size", 428, "<I", [0, 1024, 4095, 8192, 0x7fffffff, 0xffffffff]),
            ("sub_hdr_size", 432, "<i", [0, -1, 0x7fffffff, 100000]),
            ("bitmap_blocks", 436, "<I", [0, 1, 0xffffffff, d.bitmap_blocks * 2]),
            ("max_mapnr", 440, "<I", [0, 0xffffffff]),
            ("header_version", 8, "<i", [0, -1, 3, 5, 99]),
            ("status", 424, "<I", [0xffffffff]),
            ("sub.phys_base", d.sub + 0, "<Q", [0x1000000, 0xffffffffffffffff]),
            ("sub.dump_level", d.sub + 8, "<i", [0, 31, -1]),
            ("sub.split", d.sub + 12, "<i", [1]),
            ("sub.offset_vmcoreinfo", d.sub + 32, "<Q", [d.size + 4096]),
            ("sub.offset_note", d.sub + 48, "<Q", [d.size + 4096, d.size - 8, 1 << 62]),
            ("sub.size_note", d.sub + 56, "<Q", [0, 5, 1 << 40, 0xffffffffffffffff]),
            ("sub.max_mapnr_64", d.sub + 96, "<Q", [0, 0xffffffffffffffff, 1 << 40]),
        ]
        for field, off, fmt, values in fields:
            for v in values:
                add(f"hdr-{field}-{v:#x}", f"{field} set to {v:#x}", ("pack", off, fmt, v))
        add("hdr-machine-i686", "utsname.machine says i686", ("write", 272, b"i686\0\0"))
        add("hdr-signature", "a damaged signature", ("write", 0, b"KDUMP  X"))
        add("hdr-diskdump", "the old DISKDUMP signature", ("write", 0, b"DISKDUMP"))
    else:
        fields = [
            ("e_phnum", 56, "<H", [0, 0xffff, d.phnum + 50]),
            ("e_phoff", 32, "<Q", [d.size + 8, 1 << 63]),
            ("e_phentsize", 54, "<H", [32, 0]),
            ("e_machine", 18, "<H", [3]),
            ("e_type", 16, "<H", [2]),
            ("e_shnum", 60, "<H", [5]),
            ("e_shoff", 40, "<Q", [d.size - 16]),
        ]
        for field, off, fmt, values in fields:
            for v in values:
                add(f"hdr-{field}-{v:#x}", f"{field} set to {v:#x}", ("pack", off, fmt, v))
        add("hdr-class32", "EI_CLASS says 32-bit", ("write", 4, b"\x01"))
        loads = [p for p in d.phdrs if p["type"] == 1]
        notes = [p for p in d.phdrs if p["type"] == 4]
        if loads:
            big = max(loads, key=lambda p: p["filesz"])
            add("phdr-load-offset", "the largest PT_LOAD's p_offset past the end",
                ("pack", big["at"] + 8, "<Q", d.size + 4096))
            add("phdr-load-filesz", "the largest PT_LOAD's p_filesz huge",
                ("pack", big["at"] + 32, "<Q", 1 << 50))
            add("phdr-load-memsz", "the largest PT_LOAD's p_memsz below its p_filesz",
                ("pack", big["at"] + 40, "<Q", 4096))
        if notes:
            add("phdr-note-filesz", "PT_NOTE's p_filesz huge", ("pack", notes[0]["at"] + 32, "<Q",
                                                                 1 << 40))
            add("note-namesz", "the first note's namesz huge", ("pack", d.note_off, "<I",
                                                               0xfffffff0))
            add("note-prstatus-short", "the first note's descsz 16 (a short PRSTATUS)",
                ("pack", d.note_off + 4, "<I", 16))

    # --- the page bitmap and the page descriptors ---
    if d.fmt == "kdump" and d.set_bits:
        n = len(d.set_bits)
        for i, where in ((0, "first"), (n // 2, "middle"), (n - 1, "last")):
            pfn = d.set_bits[i]
            add(f"bitmap-clear-{where}", f"the {where} dumped page's bitmap bit cleared "
                f"(pfn {pfn:#x})", ("bitclear", d.bitmap2 + pfn // 8, pfn % 8))
        for pfn in rnd.sample(d.clear_bits, min(2, len(d.clear_bits))):
            add(f"bitmap-set-{pfn:#x}", f"a left-out page's bitmap bit set (pfn {pfn:#x})",
                ("bitset", d.bitmap2 + pfn // 8, pfn % 8))
        add("bitmap-block-zero", "the first block of the dumped-pages bitmap zeroed",
            ("zero", d.bitmap2, d.block))
        for i, where in ((0, "first"), (n // 2, "middle")):
            o = d.descs + 24 * i
            add(f"desc-{where}-size-zero", f"the {where} page descriptor's size 0",
                ("pack", o + 8, "<I", 0))
            add(f"desc-{where}-size-huge", f"the {where} page descriptor's size 70000",
                ("pack", o + 8, "<I", 70000))
            add(f"desc-{where}-size-5000", f"the {where} page descriptor's size 5000",
                ("pack", o + 8, "<I", 5000))
            add(f"desc-{where}-offset-1", f"the {where} page descriptor's offset off by one",
                ("add", o, "<Q", 1))
            add(f"desc-{where}-offset-far", f"the {where} page descriptor's offset past the end",
                ("pack", o, "<Q", d.size + (1 << 20)))
            add(f"desc-{where}-flags", f"the {where} page descriptor's flags 0xff",
                ("pack", o + 12, "<I", 0xff))

    # --- zeroed blocks anywhere ---
    blocks = {0, 4096} | {rnd.randrange(0, d.size // 4096) * 4096 for _ in range(8)}
    for b in sorted(x for x in blocks if x < d.size):
        add(f"zero-{b:#x}", f"4 KiB of zeros at {b:#x}", ("zero", b, 4096))

    # --- flipped bytes in the first 64 KiB ---
    top = min(FIRST, d.size)
    for i in range(40):
        flips = tuple((rnd.randrange(top), 1 << rnd.randrange(8)) for _ in range(rnd.randint(1, 4)))
        add(f"flip-{i:02d}", "flipped bits at " + ",".join(f"{o:#x}" for o, _ in flips),
            ("flip", flips))

    # --- VMCOREINFO text, edited in place (same length) ---
    if d.vmci_at is not None:
        def sub(name, what, old, new):
            at = d.vmci.find(old)
            if at < 0 or len(old) != len(new):
                return
            add(name, what, ("write", d.vmci_at + at, new))

        ps = d.vmci_lines.get(b"PAGESIZE")
        if ps:
            line = b"PAGESIZE=" + ps + b"\n"
            sub("vmci-pagesize-0", "PAGESIZE=0", line, b"PAGESIZE=0\n" + b"Z" * (len(line) - 12)
                + b"\n")
            sub("vmci-pagesize-empty", "PAGESIZE= (empty)", line,
                b"PAGESIZE=\n" + b"Z" * (len(line) - 11) + b"\n")
            sub("vmci-pagesize-8192", "PAGESIZE=8192", line, line.replace(ps, b"8192"))
            sub("vmci-pagesize-noeq", "a PAGESIZE line without '='", line, line.replace(b"=", b" "))
        sub("vmci-kerneloffset-missing", "no KERNELOFFSET line", b"\nKERNELOFFSET=", b"\nXERNELOFFSET=")
        sub("vmci-osrelease-missing", "no OSRELEASE line", b"OSRELEASE=", b"XSRELEASE=")
        sub("vmci-kallsyms-missing", "no SYMBOL(kallsyms_names) line (a kernel before 6.0)",
            b"SYMBOL(kallsyms_names)=", b"SYMBOL(kallsyms_nameX)=")
        sub("vmci-prb-missing", "no SYMBOL(prb) line", b"SYMBOL(prb)=", b"SYMBOL(prX)=")
        sub("vmci-conflict", "a key that is also a directory of keys", b"SIZE(printk_info)=",
            b"OFFSET(printk_info=")
        sub("vmci-nul", "a NUL in the middle of the text", b"\nSYMBOL(_stext)", b"\0SYMBOL(_stext)")
        for sym in ("prb", "oops_count", "warn_count", "kallsyms_num_syms", "kallsyms_names",
                    "_stext"):
            v = d.vmci_lines.get(b"SYMBOL(%s)" % sym.encode())
            if not v:
                continue
            old = b"SYMBOL(%s)=%s\n" % (sym.encode(), v)
            sub(f"vmci-{sym}-garbage", f"SYMBOL({sym}) not hexadecimal", old,
                old.replace(v, b"z" * len(v)))
            sub(f"vmci-{sym}-unmapped", f"SYMBOL({sym}) at an unmapped address", old,
                old.replace(v, b"%0*x" % (len(v), 0x1000)))
            sub(f"vmci-{sym}-moved", f"SYMBOL({sym}) 64 bytes off", old,
                old.replace(v, b"%0*x" % (len(v), int(v, 16) + 64)))
            ex = d.excluded_image_vaddr()
            if ex:
                sub(f"vmci-{sym}-excluded", f"SYMBOL({sym}) into a page makedumpfile left out",
                    old, old.replace(v, b"%0*x" % (len(v), ex)))
        # SYMBOL() lines of two variables exchanged, or one shifted: each reads
        # another variable, or the middle of one
        def hexsym(sym):
            return d.vmci_lines.get(b"SYMBOL(%s)" % sym.encode())

        for a, b in PAIRS + TABLE_PAIRS:
            va, vb = hexsym(a), hexsym(b)
            if va and vb and len(va) == len(vb):
                la, lb = b"SYMBOL(%s)=%s\n" % (a.encode(), va), b"SYMBOL(%s)=%s\n" % (b.encode(), vb)
                ia, ib = d.vmci.find(la), d.vmci.find(lb)
                if ia >= 0 and ib >= 0:
                    add(f"sym-swap-{a}-{b}", f"SYMBOL({a}) and SYMBOL({b}) exchanged",
                        ("write", d.vmci_at + ia + len(la) - 1 - len(va), vb),
                        ("write", d.vmci_at + ib + len(lb) - 1 - len(vb), va))
        for sym in ("oops_count", "oops_limit", "warn_count", "warn_limit", "panic_on_oops",
                    "tainted_mask") + TABLES:
            v = hexsym(sym)
            if not v:
                continue
            old = b"SYMBOL(%s)=%s\n" % (sym.encode(), v)
            for delta in (4, -4, 8, 4096):
                sub(f"sym-shift-{sym}{delta:+d}", f"SYMBOL({sym}) {delta:+d} bytes", old,
                    old.replace(v, b"%0*x" % (len(v), (int(v, 16) + delta) % (1 << 64))))
        for key in (b"OFFSET(printk_info.seq)", b"SIZE(printk_ringbuffer)",
                    b"OFFSET(prb_desc_ring.count_bits)"):
            v = d.vmci_lines.get(key)
            if v:
                old = key + b"=" + v + b"\n"
                sub("vmci-" + key.decode().lower().translate({40: 45, 41: None, 46: 45}),
                    f"{key.decode()} changed", old, key + b"=" + b"9" * len(v) + b"\n")

    # --- the pages that hold the variables, damaged ---
    sizes = {"tainted_mask": 8, "panic_on_taint": 8}
    for var, addr in sorted((addrs or {}).items()):
        if d.pfn_of(addr) is None:
            continue
        n = sizes.get(var, 4)
        # one bit of the value: bit 30 (62) makes a count impossible, a limit another
        add(f"page-{var}-bit", f"bit {8 * n - 2} of {var} flipped in its page",
            ("page", addr + n - 1, "flip", 0x40))
        add(f"page-{var}-value", f"{var} overwritten with 0x7fffffff",
            ("page", addr, "bytes", struct.pack("<I", 0x7fffffff)))
    pages = {}
    for var, addr in sorted((addrs or {}).items()):
        if d.pfn_of(addr) is not None:
            pages.setdefault(addr & ~(PAGE - 1), var)
    for base, var in sorted(pages.items()):
        for mode, data in (("zero", bytes(PAGE)), ("ones", b"\xff" * PAGE),
                           ("intmax", struct.pack("<I", 0x7fffffff) * (PAGE // 4)),
                           ("random", bytes(rnd.randrange(256) for _ in range(PAGE)))):
            add(f"page-of-{var}-{mode}", f"the page of {var} ({base:#x}) made {mode}",
                ("page", base, "bytes", data))
        for i in range(2):
            flips = tuple((base + rnd.randrange(PAGE), 1 << rnd.randrange(8)) for _ in range(8))
            add(f"page-of-{var}-flips-{i}", f"8 bits flipped in the page of {var}",
                *[("page", o, "flip", m) for o, m in flips])

    # --- the kallsyms tables, edited ---
    ks = {k: d.symbol(k) for k in ("kallsyms_num_syms", "kallsyms_offsets", "kallsyms_token_table",
                                   "kallsyms_names", "kallsyms_markers", "kallsyms_relative_base")}
    if ks["kallsyms_num_syms"] and d.pfn_of(ks["kallsyms_num_syms"]) is not None:
        for name, val in (("minus1", -1), ("plus1", 1), ("huge", 1 << 28)):
            add(f"ksym-num-syms-{name}", f"kallsyms_num_syms {val:+d}",
                ("page", ks["kallsyms_num_syms"], "add32", val))
    for table in ("kallsyms_token_table", "kallsyms_names", "kallsyms_markers"):
        if ks[table] and d.pfn_of(ks[table]) is not None:
            add(f"ksym-{table[9:]}-zero", f"the first page of {table} zeroed",
                ("page", ks[table], "bytes", bytes(PAGE - ks[table] % PAGE)))
            for i in range(2):
                o = ks[table] + rnd.randrange(256)
                add(f"ksym-{table[9:]}-flip-{i}", f"a bit of {table} flipped at {o:#x}",
                    ("page", o, "flip", 1 << rnd.randrange(8)))
    if ks["kallsyms_offsets"] and addrs:
        # entries of the variables: exchanged, or one moved
        for a, b in PAIRS:
            if a in addrs and b in addrs:
                add(f"ksym-swap-{a}-{b}", f"the kallsyms entries of {a} and {b} exchanged",
                    ("ksym", "swap", addrs[a], addrs[b]))
        for var in ("oops_count", "oops_limit", "warn_count", "warn_limit"):
            if var in addrs:
                add(f"ksym-move-{var}", f"the kallsyms entry of {var} 64 bytes off",
                    ("ksym", "move", addrs[var], 64))
    return out


class PhysPages:
    """Pages of a dump by pfn, through libkdumpfile (decompressed)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL("libkdumpfile.so.10")
        self.lib.kdump_new.restype = ctypes.c_void_p
        self.lib.kdump_open_fdset.argtypes = [ctypes.c_void_p, ctypes.c_uint,
                                              ctypes.POINTER(ctypes.c_int)]
        self.lib.kdump_read.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64,
                                        ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
        self.f = open(path, "rb")
        self.ctx = self.lib.kdump_new()
        fd = ctypes.c_int(self.f.fileno())
        if self.lib.kdump_open_fdset(self.ctx, 1, ctypes.byref(fd)) != 0:
            fail(f"libkdumpfile cannot open {path}")
        # physical addresses translate once it knows the dump is Linux
        class Attr(ctypes.Structure):  # kdump_attr_t holding a string (KDUMP_STRING, 4)
            _fields_ = [("type", ctypes.c_int), ("string", ctypes.c_char_p)]
        self.lib.kdump_set_attr.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(Attr)]
        self.lib.kdump_set_attr(self.ctx, b"addrxlat.ostype", ctypes.byref(Attr(4, b"linux")))

    def page(self, pfn):
        buf = ctypes.create_string_buffer(PAGE)
        n = ctypes.c_size_t(PAGE)
        if self.lib.kdump_read(self.ctx, 0, pfn * PAGE, buf, ctypes.byref(n)) != 0 or n.value != PAGE:
            return None
        return buf.raw


def ksym_entries(d, pages, want):
    """{address: (vaddr of its kallsyms_offsets entry, u32)} for the addresses in want."""
    num = struct.unpack("<I", pages.read(d.symbol("kallsyms_num_syms"), 4))[0]
    offs = d.symbol("kallsyms_offsets")
    base_sym = d.symbol("kallsyms_relative_base")
    base = struct.unpack("<Q", pages.read(base_sym, 8))[0] if base_sym else None
    table = pages.read(offs, 4 * num)
    out = {}
    for i in range(num):
        u = struct.unpack_from("<I", table, 4 * i)[0]
        sv = u - (1 << 32) if u & (1 << 31) else u
        cands = {u}
        if base is not None:
            cands |= {(base + u) % (1 << 64), (base - 1 - sv) % (1 << 64) if sv < 0 else sv}
        for a in want:
            if a in cands and a not in out:
                out[a] = (offs + 4 * i, u)
    return out


class Memory:
    """Kernel-image memory of the original dump, read by address."""

    def __init__(self, d):
        self.d = d
        self.phys = PhysPages(d.path) if d.fmt == "kdump" else None

    def read(self, vaddr, n):
        out = b""
        while n:
            k = min(n, PAGE - vaddr % PAGE)
            pfn = self.d.pfn_of(vaddr)
            if self.phys:
                page = self.phys.page(pfn) or bytes(PAGE)
            else:
                off = self.d.elf_offset(pfn)
                page = self.d.read(off, PAGE) if off is not None else bytes(PAGE)
            out += page[vaddr % PAGE:vaddr % PAGE + k]
            vaddr, n = vaddr + k, n - k
        return out


class RawPages:
    """A copy of the dump in which some pages are stored whole, so that a
    variant can edit memory in place: an ELF dump's pages already are; a
    kdump-compressed dump is rewritten once with those pages uncompressed,
    the page data still in descriptor order, so its checks still pass."""

    def __init__(self, d, path, vaddrs):
        self.d = d
        self.path = path
        self.where = {}
        pfns = sorted({d.pfn_of(v) for v in vaddrs if d.pfn_of(v) is not None})
        if d.fmt == "elf":
            shutil.copyfile(d.path, path)
            self.where = {p: d.elf_offset(p) for p in pfns if d.elf_offset(p) is not None}
            return
        phys = PhysPages(d.path)
        raw = {p: phys.page(p) for p in pfns if p in set(d.set_bits)}
        raw = {p: b for p, b in raw.items() if b is not None}
        nset = len(d.set_bits)
        data_start = d.descs + 24 * nset
        with open(d.path, "rb") as src, open(path, "wb") as dst:
            dst.write(src.read(data_start))
            src.seek(d.descs)
            descs = bytearray(src.read(24 * nset))
            pos = data_start
            zero_first = d.dump_level & 1
            if zero_first:
                src.seek(data_start)
                dst.write(src.read(PAGE))
                pos += PAGE
            for i, pfn in enumerate(d.set_bits):
                off, size, flags, pageflags = struct.unpack_from("<QIIQ", descs, 24 * i)
                if zero_first and off == data_start and size == PAGE and not flags:
                    continue
                if pfn in raw:
                    data, size, flags = raw[pfn], PAGE, 0
                    self.where[pfn] = pos
                else:
                    src.seek(off)
                    data = src.read(size)
                struct.pack_into("<QIIQ", descs, 24 * i, pos, size, flags, pageflags)
                dst.write(data)
                pos += size
            dst.seek(d.descs)
            dst.write(descs)

    def read(self, vaddr, n):
        out = b""
        with open(self.path, "rb") as f:
            while n:
                k = min(n, PAGE - vaddr % PAGE)
                f.seek(self.where[self.d.pfn_of(vaddr)] + vaddr % PAGE)
                out += f.read(k)
                vaddr, n = vaddr + k, n - k
        return out

    def offset(self, vaddr):
        pfn = self.d.pfn_of(vaddr)
        return None if pfn not in self.where else self.where[pfn] + vaddr % PAGE


def page_vaddrs(d, vs):
    """The memory the page and ksym variants edit (and read), to be stored whole."""
    out = set()
    for _, _, recipe in vs:
        for e in recipe:
            if e[0] == "page":
                n = len(e[3]) if e[2] == "bytes" else 4
                out |= {e[1], e[1] + n - 1}
            elif e[0] == "ksym":
                out |= {e[2], e[3]} if e[1] == "swap" else {e[2]}
    if out and d.symbol("kallsyms_num_syms"):
        out.add(d.symbol("kallsyms_num_syms"))
        if d.symbol("kallsyms_relative_base"):
            out.add(d.symbol("kallsyms_relative_base"))
    return out


def memory_patches(raw, recipe, entries):
    """(file offset, bytes) of the page and ksym edits of a recipe, in raw's file."""
    out = []
    for e in recipe:
        if e[0] == "page":
            at = raw.offset(e[1])
            if at is None:
                continue
            if e[2] == "bytes":
                data = e[3][:PAGE - e[1] % PAGE]
            elif e[2] == "flip":
                data = bytes([raw.read(e[1], 1)[0] ^ e[3]])
            else:  # add32
                data = struct.pack("<I", (struct.unpack("<I", raw.read(e[1], 4))[0] + e[3]) % (1 << 32))
            out.append((at, data))
        elif e[0] == "ksym":
            if e[1] == "swap" and e[2] in entries and e[3] in entries:
                (va, ua), (vb, ub) = entries[e[2]], entries[e[3]]
                out += [(raw.offset(va), struct.pack("<I", ub)), (raw.offset(vb), struct.pack("<I", ua))]
            elif e[1] == "move" and e[2] in entries:
                va, ua = entries[e[2]]
                # an absolute-percpu entry counts down: either way the address moves
                out.append((raw.offset(va), struct.pack("<I", (ua + e[3] if ua < 1 << 31 else ua - e[3])
                                                        % (1 << 32))))
    return [(o, b) for o, b in out if o is not None]


def patches(f, recipe):
    """The (offset, bytes) writes an edit recipe makes to the open file f."""
    out = []
    for e in recipe:
        if e[0] == "pack":
            out.append((e[1], struct.pack(e[2], e[3])))
        elif e[0] == "add":
            n = struct.calcsize(e[2])
            f.seek(e[1])
            v = struct.unpack(e[2], f.read(n))[0]
            out.append((e[1], struct.pack(e[2], (v + e[3]) % (1 << 8 * n))))
        elif e[0] == "write":
            out.append((e[1], e[2]))
        elif e[0] == "zero":
            out.append((e[1], b"\0" * e[2]))
        elif e[0] in ("bitclear", "bitset", "flip"):
            flips = e[1] if e[0] == "flip" else ((e[1], 1 << e[2]),)
            for off, mask in flips:
                f.seek(off)
                b = f.read(1)[0]
                b = b & ~mask if e[0] == "bitclear" else (b | mask if e[0] == "bitset" else b ^ mask)
                out.append((off, bytes([b])))
    return out


def sparse_copy(src, dst, size):
    """Copies src's first size bytes to dst, leaving 4 KiB blocks of zeros as holes."""
    zero = bytes(4096)
    with open(src, "rb") as s, open(dst, "wb") as d:
        pos = 0
        while pos < size:
            chunk = s.read(min(1 << 20, size - pos))
            if not chunk:
                break
            for i in range(0, len(chunk), 4096):
                block = chunk[i:i + 4096]
                if block != zero[:len(block)]:
                    d.seek(pos + i)
                    d.write(block)
            pos += len(chunk)
        d.truncate(pos)


def make_special(d, what, path):
    if what == "empty":
        open(path, "wb").close()
    elif what == "directory":
        os.mkdir(path)
    elif what == "fifo":
        os.mkfifo(path)
    elif what == "sparse":
        with open(path, "wb") as f:
            f.truncate(d.size)
    elif what == "text":
        with open(path, "w") as f:
            f.write("This is not a dump.\n" * 100)
    elif what == "devnull":
        os.symlink("/dev/null", path)
    elif what == "symlink":
        os.symlink(os.path.abspath(d.path), path)


def remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        os.rmdir(path)
    elif os.path.lexists(path):
        os.unlink(path)


def make(d, recipe, path):
    """Writes the variant to path (replacing what is there)."""
    remove(path)
    kind = recipe[0][0]
    if kind == "type":
        make_special(d, recipe[0][1], path)
    elif kind == "truncate":
        sparse_copy(d.path, path, recipe[0][1])
    else:
        sparse_copy(d.path, path, d.size)
        with open(path, "r+b") as f:
            for off, data in patches(f, recipe):
                f.seek(off)
                f.write(data)


class Workbench:
    """One working copy for a whole sweep: a variant is made by editing it in
    place and undone after, truncations come last and deepest first, so a
    large dump is copied once, not once a variant."""

    def __init__(self, d, directory, vs=()):
        self.d = d
        self.path = os.path.join(directory, "vmcore")
        self.other = os.path.join(directory, "other")
        self.undo = []
        self.undo_path = self.path
        sparse_copy(d.path, self.path, d.size)
        self.size = d.size
        # a second copy with the pages the memory edits touch stored whole
        self.raw = None
        self.entries = {}
        need = page_vaddrs(d, vs)
        want = {e[i] for _, _, r in vs for e in r if e[0] == "ksym" for i in (2, 3)
                if isinstance(e[i], int) and e[i] > 4096}
        if want and d.symbol("kallsyms_offsets") and d.symbol("kallsyms_num_syms"):
            self.entries = ksym_entries(d, Memory(d), want)
            need |= {va for va, _ in self.entries.values()}
        if need:
            self.raw = RawPages(d, os.path.join(directory, "vmcore-raw"), need)

    @staticmethod
    def order(vs):
        """Edits, then files of other types, then truncations, longest first."""
        def key(v):
            kind = v[2][0][0]
            return (2, -v[2][0][1]) if kind == "truncate" else ((1, 0) if kind == "type" else (0, 0))
        return sorted(vs, key=key)

    def apply(self, recipe):
        """Makes the variant; returns its path."""
        kind = recipe[0][0]
        if kind == "type":
            remove(self.other)
            make_special(self.d, recipe[0][1], self.other)
            return self.other
        if kind == "truncate":
            if recipe[0][1] > self.size:
                raise ValueError("truncations must come longest first")
            os.truncate(self.path, recipe[0][1])
            self.size = recipe[0][1]
            return self.path
        path = self.path
        if kind in ("page", "ksym"):
            if not self.raw:
                return None
            path = self.raw.path
        self.undo_path = path
        with open(path, "r+b") as f:
            edits = memory_patches(self.raw, recipe, self.entries) if path != self.path \
                else patches(f, recipe)
            if not edits:
                return None
            for off, data in edits:
                f.seek(off)
                old = f.read(len(data))
                self.undo.append((off, old))
                f.seek(off)
                f.write(data)
        return path

    def restore(self):
        """Undoes the last edit variant."""
        with open(self.undo_path, "r+b") as f:
            for off, old in reversed(self.undo):
                f.seek(off)
                f.write(old)
        self.undo = []
        remove(self.other)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=12)
    sp = ap.add_subparsers(dest="cmd", required=True)
    p = sp.add_parser("list")
    p.add_argument("dump")
    p = sp.add_parser("make")
    p.add_argument("dump")
    p.add_argument("name")
    p.add_argument("path")
    p = sp.add_parser("all")
    p.add_argument("dump")
    p.add_argument("dir")
    a = ap.parse_args()
    if not os.path.isfile(a.dump):
        fail(f"{a.dump} is not a file")
    d = Dump(a.dump)
    vs = variants(d, a.seed)
    if a.cmd == "list":
        for name, what, _ in vs:
            print(f"{name}\t{what}")
    elif a.cmd == "make":
        for name, _, recipe in vs:
            if name == a.name:
                make(d, recipe, a.path)
                return
        fail(f"no variant {a.name} (see: generate.py list {a.dump})")
    else:
        os.makedirs(a.dir, exist_ok=True)
        for name, _, recipe in vs:
            make(d, recipe, os.path.join(a.dir, name))


if __name__ == "__main__":
    main()
