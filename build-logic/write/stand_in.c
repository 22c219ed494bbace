/* The stand-in's hand-over, compiled after the generated part (the mark,
   LIBCUDA_SYS_COUNT, libcuda_sys_slots, libcuda_sys_names and one entry point
   per name that jumps through its slot). When the library is loaded, each slot
   is pointed at the same function of the libcuda.so.1 the dynamic loader
   would have loaded had this file not come first on its path; without one, at
   a function that returns CUDA_ERROR_STUB_LIBRARY. It is C that C++ compilers
   also accept (CC=g++). */

static int libcuda_sys_stub(void) { return 34; /* CUDA_ERROR_STUB_LIBRARY */ }
static int libcuda_sys_missing(void) { return 500; /* CUDA_ERROR_NOT_FOUND */ }
static void *libcuda_sys_driver;

/* Whether this stand-in is looking for the driver now. Another copy of the
   stand-in that its search opens (the stand-ins of several builds on one path)
   asks, and then looks for nothing itself: it is passed over as a stand-in
   anyway, and its own search would open the copies after it, each of which
   would open the rest, before any of them was told apart. */
static int libcuda_sys_searching;
__attribute__((visibility("default"))) int libcuda_sys_stand_in_searching(void) {
  return libcuda_sys_searching;
}

/* The library the calls go to, so that libcuda_sys::driver_symbol looks there
   and not here; NULL when there is none. */
__attribute__((visibility("default"))) void *libcuda_sys_stand_in_driver(void) {
  return libcuda_sys_driver;
}

/* Whether a real path is a toolkit's stub: its file is libcuda.so (a driver's
   is libcuda.so.<version>) in a directory named stubs. A driver elsewhere under
   a directory of that name (/home/stubs/..., a symlink into one) is a driver. */
static int libcuda_sys_toolkit_stub(const char *real) {
  const char *base = strrchr(real, '/');
  if (!base || strcmp(base, "/libcuda.so") != 0) return 0;
  return base - real >= 6 && strncmp(base - 6, "/stubs", 6) == 0;
}

/* dir/libcuda.so.1 (dir is len bytes) opened, if it is a driver: not this file
   under any name, not a toolkit stub (told by its real path, so also behind a
   symlink), not another stand-in, and exporting cuInit. Nothing of it is
   called: while the program loads, a library that hangs or crashes when called
   must not stop it before main. So a copy of the toolkit's stub outside a
   stubs directory is taken, as the loader would take it, and answers
   CUDA_ERROR_STUB_LIBRARY, as this file does without a driver. */
static void *libcuda_sys_driver_file(const char *dir, size_t len, const struct stat *self) {
  char path[PATH_MAX], real[PATH_MAX];
  struct stat st;
  void *h;
  if (len == 0 || len + sizeof "/libcuda.so.1" > sizeof path) return 0;
  memcpy(path, dir, len);
  strcpy(path + len, "/libcuda.so.1");
  if (!realpath(path, real) || libcuda_sys_toolkit_stub(real) || stat(real, &st) != 0) return 0;
  if (st.st_dev == self->st_dev && st.st_ino == self->st_ino) return 0;
  h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) return 0; /* also a library of another architecture */
  if (dlsym(h, "libcuda_sys_stand_in") || !dlsym(h, "cuInit")) {
    dlclose(h);
    return 0;
  }
  return h;
}

/* Whether this CPU has the x86-64 level (2, 3, 4) whose glibc-hwcaps
   subdirectory the loader would search: the features glibc requires of each
   level (sysdeps/x86/get-isa-level.h), read with cpuid and, for the AVX
   levels, the register state the kernel saves (xgetbv), as glibc reads them.
   Any compiler: GCC before 12 and clang know no level names for
   __builtin_cpu_supports. */
#if defined(__x86_64__)
static int libcuda_sys_level(int level) {
  unsigned a, b, c, d, ecx1, ecx81 = 0, ebx7 = 0, max, lo, hi;
  int v2, v3;
  __asm__("cpuid" : "=a"(max), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(ecx1), "=d"(d) : "a"(1), "c"(0));
  if (max >= 7) __asm__("cpuid" : "=a"(a), "=b"(ebx7), "=c"(c), "=d"(d) : "a"(7), "c"(0));
  __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
  if (a >= 0x80000001u) __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(ecx81), "=d"(d) : "a"(0x80000001u), "c"(0));
  /* SSE3, SSSE3, CMPXCHG16B, SSE4.1, SSE4.2, POPCNT; LAHF/SAHF. */
  v2 = (ecx1 & 0x00982201u) == 0x00982201u && (ecx81 & 1u);
  if (level == 2 || !v2) return v2;
  /* OSXSAVE, else xgetbv faults. */
  if (!(ecx1 & (1u << 27))) return 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  /* FMA, MOVBE, AVX, F16C; LZCNT; BMI1, AVX2, BMI2; SSE and AVX state. */
  v3 = (ecx1 & 0x30401000u) == 0x30401000u && (ecx81 & (1u << 5)) && (ebx7 & 0x128u) == 0x128u &&
       (lo & 6u) == 6u;
  if (level == 3 || !v3) return v3;
  /* AVX512F, DQ, CD, BW, VL; opmask and ZMM state. */
  return level == 4 && (ebx7 & 0xd0030000u) == 0xd0030000u && (lo & 0xe0u) == 0xe0u;
}
#else
static int libcuda_sys_level(int level) {
  (void)level;
  return 0;
}
#endif

/* The driver the loader would take from dir: glibc 2.33 and later look in
   its glibc-hwcaps subdirectories of the levels this CPU has, best first,
   before the directory itself. */
static void *libcuda_sys_driver_in(const char *dir, size_t len, const struct stat *self) {
  void *h = 0;
#ifdef __GLIBC__
  const char *version = gnu_get_libc_version();
  int major = 0, minor = 0, level;
  if (sscanf(version, "%d.%d", &major, &minor) == 2 && (major > 2 || (major == 2 && minor >= 33))) {
    for (level = 4; !h && level >= 2; level--) {
      char sub[PATH_MAX];
      int n;
      if (!libcuda_sys_level(level) || len > sizeof sub) continue;
      n = snprintf(sub, sizeof sub, "%.*s/glibc-hwcaps/x86-64-v%d", (int)len, dir, level);
      if (n > 0 && (size_t)n < sizeof sub) h = libcuda_sys_driver_file(sub, (size_t)n, self);
    }
  }
#endif
  return h ? h : libcuda_sys_driver_file(dir, len, self);
}

/* The first driver in a list of directories separated by any of seps. */
static void *libcuda_sys_driver_in_list(const char *p, const char *seps, const struct stat *self) {
  void *h = 0;
  while (!h && p && *p) {
    size_t len = strcspn(p, seps);
    h = libcuda_sys_driver_in(p, len, self);
    p = p[len] ? p + len + 1 : 0;
  }
  return h;
}

#ifdef __GLIBC__
/* The entry of `len` bytes at `p`, without the trailing slash the loader drops. */
static size_t libcuda_sys_trimmed(const char *p, size_t len) {
  return len > 1 && p[len - 1] == '/' ? len - 1 : len;
}

/* How many directories LD_LIBRARY_PATH puts on the loader's list: it splits
   the value at ':' and ';', reads an empty entry as the current directory and
   lists a directory once. (glibc removes the variable from a setuid program's
   environment, which then gets none from it.) */
static size_t libcuda_sys_env_dirs(void) {
  const char *value = getenv("LD_LIBRARY_PATH"), *p = value && *value ? value : 0;
  size_t n = 0;
  while (p) {
    size_t len = libcuda_sys_trimmed(p, strcspn(p, ":;"));
    const char *q = value;
    int seen = 0;
    while (q < p && !seen) {
      size_t qlen = libcuda_sys_trimmed(q, strcspn(q, ":;"));
      seen = qlen == len && memcmp(q, p, len) == 0;
      q += strcspn(q, ":;") + 1;
    }
    n += !seen;
    p = p[strcspn(p, ":;")] ? p + strcspn(p, ":;") + 1 : 0;
  }
  return n;
}

/* The loader's search list for `handle` (with the tokens $ORIGIN, $LIB and
   $PLATFORM expanded, as only the loader can), or NULL; free() it. */
static Dl_serinfo *libcuda_sys_search_list(void *handle) {
  Dl_serinfo size, *list;
  if (!handle || dlinfo(handle, RTLD_DI_SERINFOSIZE, &size) != 0) return 0;
  list = (Dl_serinfo *)malloc(size.dls_size);
  if (!list) return 0;
  if (dlinfo(handle, RTLD_DI_SERINFOSIZE, list) != 0 || dlinfo(handle, RTLD_DI_SERINFO, list) != 0) {
    free(list);
    return 0;
  }
  return list;
}

/* The first driver named libcuda.so.1 in the loader's cache (/etc/ld.so.cache,
   written by ldconfig from /etc/ld.so.conf{,.d}): the format glibc 2.32 and
   later write, alone or after the old one. */
static void *libcuda_sys_driver_in_cache(const struct stat *self) {
  int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
  struct stat st;
  char *buf = 0;
  size_t size = 0, off = 0, i, n;
  void *h = 0;
  if (fd < 0) return 0;
  if (fstat(fd, &st) == 0 && st.st_size > 48 && st.st_size < (64 << 20)) {
    buf = (char *)malloc((size_t)st.st_size + 1);
    while (buf && size < (size_t)st.st_size) {
      ssize_t got = read(fd, buf + size, (size_t)st.st_size - size);
      if (got <= 0) break;
      size += (size_t)got;
    }
  }
  close(fd);
  if (!buf) return 0;
  buf[size] = 0;
  if (size >= 16 && memcmp(buf, "ld.so-1.7.0", 11) == 0) {
    uint32_t old;
    memcpy(&old, buf + 12, 4);
    off = (16 + (size_t)old * 12 + 7) & ~(size_t)7;
  }
  if (off + 48 <= size && memcmp(buf + off, "glibc-ld.so.cache1.1", 20) == 0) {
    uint32_t count;
    memcpy(&count, buf + off + 20, 4);
    n = count;
    /* Entries of 24 bytes: flags, key (the soname), value (the path), as offsets from the header. */
    for (i = 0; !h && i < n && off + 48 + (i + 1) * 24 <= size; i++) {
      const char *e = buf + off + 48 + i * 24;
      uint32_t key, value;
      const char *path, *slash;
      memcpy(&key, e + 4, 4);
      memcpy(&value, e + 8, 4);
      if (off + key >= size || off + value >= size) continue;
      if (strcmp(buf + off + key, "libcuda.so.1") != 0) continue;
      path = buf + off + value;
      slash = strrchr(path, '/');
      if (slash) h = libcuda_sys_driver_in(path, (size_t)(slash - path), self);
    }
  }
  free(buf);
  return h;
}

/* In the loader's order for the program's own libcuda.so.1: its RPATH (where it
   has no RUNPATH), LD_LIBRARY_PATH, its RUNPATH, the cache, the default
   directories. The loader lists all but the cache; the defaults end every
   object's list, which tells where the cache goes. This library's RUNPATH is
   one mark that names no directory (LIBCUDA_SYS_RUNPATH_MARK, given when it is
   linked): its own list is LD_LIBRARY_PATH's directories, the mark and the
   defaults, and, having a RUNPATH, it inherits no program's DT_RPATH, which
   would otherwise pass for defaults and put the cache before LD_LIBRARY_PATH. */
static void *libcuda_sys_find_driver(const struct stat *self, const char *self_path) {
  void *program = dlopen(0, RTLD_LAZY), *own = dlopen(self_path, RTLD_LAZY | RTLD_NOLOAD), *h = 0;
  Dl_serinfo *list = libcuda_sys_search_list(program), *mine = libcuda_sys_search_list(own);
  size_t defaults = 0, first_default, i, env = libcuda_sys_env_dirs();
  int marked = 0;
  if (own) dlclose(own);
  if (!list) {
    free(mine);
    h = libcuda_sys_driver_in_list(getenv("LD_LIBRARY_PATH"), ":;", self);
    return h ? h : libcuda_sys_driver_in_cache(self);
  }
#ifdef LIBCUDA_SYS_RUNPATH_MARK
  for (i = 0; mine && !marked && i < mine->dls_cnt; i++) {
    if (strcmp(mine->dls_serpath[i].dls_name, LIBCUDA_SYS_RUNPATH_MARK) == 0) {
      defaults = mine->dls_cnt - i - 1;
      marked = 1;
    }
  }
#endif
  if (!marked && mine && mine->dls_cnt >= env) defaults = mine->dls_cnt - env;
  first_default = list->dls_cnt >= defaults ? list->dls_cnt - defaults : 0;
  for (i = 0; !h && i < first_default; i++)
    h = libcuda_sys_driver_in(list->dls_serpath[i].dls_name, strlen(list->dls_serpath[i].dls_name), self);
  if (!h) h = libcuda_sys_driver_in_cache(self);
  for (i = first_default; !h && i < list->dls_cnt; i++)
    h = libcuda_sys_driver_in(list->dls_serpath[i].dls_name, strlen(list->dls_serpath[i].dls_name), self);
  free(list);
  free(mine);
  return h;
}
#else
/* Other C libraries (musl): LD_LIBRARY_PATH, then musl's default directories. */
static void *libcuda_sys_find_driver(const struct stat *self, const char *self_path) {
  void *h = libcuda_sys_driver_in_list(getenv("LD_LIBRARY_PATH"), ":\n", self);
  (void)self_path;
  return h ? h : libcuda_sys_driver_in_list("/lib:/usr/local/lib:/usr/lib", ":", self);
}
#endif

/* Whether another copy of the stand-in is searching (self_base: this copy's).
   A copy opened RTLD_LOCAL (the dynamic-loading feature, Python's ctypes, a
   plugin) exports its names to no one, so RTLD_DEFAULT finds none of it: each
   loaded object is asked by a handle of its own. It runs in a constructor,
   under the loader's lock, while no other thread changes the list. */
static int libcuda_sys_another_searching(const char *self_path, void *self_base) {
#ifdef __GLIBC__
  struct link_map *map = 0;
  void *own = dlopen(self_path, RTLD_LAZY | RTLD_NOLOAD);
  if (!own) return 0;
  if (dlinfo(own, RTLD_DI_LINKMAP, &map) != 0) map = 0;
  dlclose(own);
  while (map && map->l_prev) map = map->l_prev;
  for (; map; map = map->l_next) {
    void *h;
    int (*searching)(void), yes;
    Dl_info theirs;
    if (!map->l_name || !*map->l_name) continue;
    h = dlopen(map->l_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) continue;
    searching = (int (*)(void))dlsym(h, "libcuda_sys_stand_in_searching");
    yes = searching && dladdr((void *)searching, &theirs) && theirs.dli_fbase != self_base && searching();
    dlclose(h);
    if (yes) return 1;
  }
#else
  (void)self_path;
  (void)self_base;
#endif
  return 0;
}

__attribute__((constructor)) static void libcuda_sys_hand_over(void) {
  Dl_info info;
  struct stat self;
  size_t i;
  Dl_info theirs;
  int (*searching)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "libcuda_sys_stand_in_searching");
  for (i = 0; i < LIBCUDA_SYS_COUNT; i++) libcuda_sys_slots[i] = (void *)libcuda_sys_stub;
  /* This library, told by a static function's address: its exported names
     may be bound to another stand-in's. */
  if (!dladdr((void *)libcuda_sys_stub, &info) || !info.dli_fname || stat(info.dli_fname, &self) != 0)
    return;
  /* Opened by another stand-in's search, which passes over this copy. */
  if (searching && dladdr((void *)searching, &theirs) && theirs.dli_fbase != info.dli_fbase && searching())
    return;
  if (libcuda_sys_another_searching(info.dli_fname, info.dli_fbase)) return;
  libcuda_sys_searching = 1;
  libcuda_sys_driver = libcuda_sys_find_driver(&self, info.dli_fname);
  libcuda_sys_searching = 0;
  if (!libcuda_sys_driver) return;
  for (i = 0; i < LIBCUDA_SYS_COUNT; i++) {
    void *f = dlsym(libcuda_sys_driver, libcuda_sys_names[i]);
    libcuda_sys_slots[i] = f ? f : (void *)libcuda_sys_missing;
  }
}
