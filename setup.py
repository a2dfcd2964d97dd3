"""Build hooks: the rules engines compiled to C with mypyc when they can be, pure Python when they cannot.

Everything else about the package is in pyproject.toml. `pip install -e .` (and any wheel build) compiles the
modules of `NATIVE` (src/hegemon/_native.py) into one shared library plus one small extension module beside each
source file, then writes the manifest `hegemon/_native.json`: the SHA-256 of every source the build read. At
import time `hegemon` uses the compiled modules only while that manifest matches the sources (see
src/hegemon/_native.py), so an edited .py is never shadowed by a stale .so.

- `HEGEMON_PURE=1` at build time builds nothing (and removes earlier in-place builds): pure Python only.
- Without a C compiler, Python headers or mypyc, the build warns and installs the pure-Python package.
- An editable reinstall whose sources did not change since the last compiled build reuses it (no recompile).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
sys.path.insert(0, str(SRC / "hegemon"))
import _native  # noqa: E402  # the module list and manifest helpers, shared with the import-time guard

sys.path.pop(0)


def _say(msg: str) -> None:
    print(f"hegemon build: {msg}", file=sys.stderr, flush=True)


class BuildNative(build_ext):
    """build_ext that asks mypyc for the extensions only when it actually runs (setup.py is also run for
    metadata, where compiling would be wasted), and never fails the install: on any error, pure Python."""

    def run(self) -> None:
        inplace = bool(self.inplace or getattr(self, "editable_mode", False))
        targets = [SRC] if inplace else [Path(self.build_lib)]
        if inplace and not _native.pure_requested() and _native.reusable(SRC):
            _say("the compiled engine in src/ matches the sources: reused, nothing recompiled")
            self.extensions = []
            return
        for base in targets:
            _native.remove_manifest(base)
        if _native.pure_requested():
            _say("HEGEMON_PURE is set: pure Python, nothing compiled")
            if inplace:
                _native.remove_built(SRC)
            self.extensions = []
            return
        t0 = time.perf_counter()
        _say(f"compiling {len(_native.source_paths())} engine modules with mypyc: type-checking and generating C (step 1 of 2)")
        try:
            from mypyc.build import mypycify

            cwd = os.getcwd()
            os.chdir(ROOT)
            try:
                exts = mypycify(
                    [str(Path("src") / p) for p in _native.source_paths()],
                    opt_level=os.environ.get("HEGEMON_MYPYC_OPT", "3"),
                    group_name=_native.GROUP,
                    target_dir=str(Path("build") / "mypyc"),
                )
            finally:
                os.chdir(cwd)
        except BaseException as e:  # mypyc missing or refusing the code: the pure package still installs
            if isinstance(e, KeyboardInterrupt):
                raise
            _say(f"mypyc could not compile the engine ({type(e).__name__}: {e}); installing pure Python")
            self.extensions = []
            return
        for ext in exts:
            ext.sources = [s if os.path.isabs(s) else str(ROOT / s) for s in ext.sources]
            ext.optional = True  # a failing C compiler warns instead of failing the install
            # what setuptools' finalize_options sets on each extension (it ran before these existed)
            full = ext._full_name = self.get_ext_fullname(ext.name)
            self.ext_map[full] = ext
            ext._links_to_dynamic = ext._needs_stub = False
            ext._file_name = self.get_ext_filename(full)
        self.extensions = exts
        self.distribution.ext_modules = exts
        _say(f"C generated in {time.perf_counter() - t0:.0f} s; the C compiler builds the engine (step 2 of 2, the longer one)")
        super().run()
        built = [Path(self.get_ext_fullpath(e.name)) for e in exts]
        if inplace:
            build_py = self.get_finalized_command("build_py")
            built = [Path(self._get_inplace_equivalent(build_py, e)[0]) for e in exts]
        missing = [str(p) for p in built if not p.exists()]
        if missing:
            _say(f"{len(missing)} compiled module(s) failed to build; the engine runs as pure Python")
            return
        for base in targets:
            _native.write_manifest(base, SRC)
        _say(f"compiled {len(exts) - 1} engine modules with mypyc in {time.perf_counter() - t0:.0f} s")

    def get_outputs(self) -> list[str]:
        outputs = list(super().get_outputs())
        if not (self.inplace or getattr(self, "editable_mode", False)):
            manifest = _native.manifest_path(Path(self.build_lib))
            if manifest.exists():
                outputs.append(str(manifest))
        return outputs


setup(
    # a placeholder so that setuptools runs build_ext; BuildNative replaces it with mypyc's extensions
    ext_modules=[Extension(f"{_native.GROUP}__placeholder", sources=[])],
    cmdclass={"build_ext": BuildNative},
)
