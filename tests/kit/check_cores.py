#!/usr/bin/env python3
"""check_cores.py DIR... - each FuseSoC core (*.core) under DIR, as FuseSoC would read it
(FuseSoC itself is not in Debian): CAPI2 YAML with a name:vendor:library:name:version,
every file of every fileset present, targets lint, sim and synth naming defined filesets,
their top and tool, parameters with a datatype and default; then the lint target run as
FuseSoC's Verilator backend (edalize) would: verilator --lint-only with the target's
options, +incdir+ each include path, the vlt and source files in the target's order,
--top-module its top.
One line per check; ends with "N passed, M failed", exit 1 on any failure."""
import glob
import os
import subprocess
import sys

import yaml

passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        print("ok   " + name)
        passed += 1
    else:
        print("FAIL " + name + (": " + why if why else ""))
        failed += 1
    return ok


def files_of(core, fileset):
    """(path, attributes, file_type) of a fileset's files, as CAPI2 lists them."""
    fs = core["filesets"][fileset]
    for entry in fs.get("files", []):
        if isinstance(entry, dict):
            (path, attrs), = entry.items()
        else:
            path, attrs = entry, {}
        yield path, attrs, attrs.get("file_type", fs.get("file_type"))


def lint_command(core, root):
    t = core["targets"]["lint"]
    opts = t["tools"]["verilator"].get("verilator_options", [])
    incdirs, files = [], []
    for fs in t["filesets"]:
        for path, attrs, ftype in files_of(core, fs):
            if attrs.get("is_include_file"):
                d = os.path.join(root, attrs.get("include_path", os.path.dirname(path)))
                if d not in incdirs:
                    incdirs.append(d)
            elif ftype == "vlt" or ftype.startswith(("systemVerilogSource", "verilogSource")):
                files.append(os.path.join(root, path))  # in the target's order, as FuseSoC
    return (["verilator", "--lint-only"] + opts + ["+incdir+" + d for d in incdirs] + files +
            ["--top-module", t["toplevel"]])


def check_core(path):
    root = os.path.dirname(path)
    rel = os.path.basename(path)
    with open(path) as f:
        text = f.read()
    if not check(rel + ": starts with CAPI=2:", text.startswith("CAPI=2:")):
        return
    try:
        core = yaml.safe_load(text)
    except yaml.YAMLError as e:
        check(rel + ": YAML", False, str(e).splitlines()[0])
        return
    check(rel + ": name is vendor:library:name:version",
          len(str(core.get("name", "")).split(":")) == 4, repr(core.get("name")))
    missing = [p for fs in core.get("filesets", {}) for p, _, _ in files_of(core, fs)
               if not os.path.isfile(os.path.join(root, p))]
    check(rel + ": every listed file exists", not missing and core.get("filesets"),
          " ".join(missing) or "no filesets")
    for name, p in core.get("parameters", {}).items():
        check(rel + ": parameter " + name,
              p.get("datatype") in ("bool", "int", "str", "real", "file") and "default" in p
              and p.get("paramtype") == "vlogparam", repr(p))
    targets = core.get("targets", {})
    for tname, tool in (("lint", "verilator"), ("sim", "verilator"), ("synth", "yosys")):
        t = targets.get(tname)
        ok = (isinstance(t, dict) and t.get("default_tool") == tool and t.get("toplevel")
              and t.get("filesets") and all(fs in core["filesets"] for fs in t["filesets"])
              and tool in t.get("tools", {})
              and all(p in core.get("parameters", {}) for p in t.get("parameters", [])))
        check(rel + ": target " + tname + " (" + tool + ")", ok, repr(t))
    if "lint" in targets and not missing:
        cmd = lint_command(core, root)
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        check(rel + ": lint target's verilator --lint-only -Wall over the core's files",
              r.returncode == 0, "\n    ".join([" ".join(cmd)] + r.stdout.splitlines()[:10]))


def main():
    cores = sorted(p for d in sys.argv[1:] for p in glob.glob(os.path.join(d, "**", "*.core"), recursive=True))
    check("cores found in " + " ".join(sys.argv[1:]), cores)
    for c in cores:
        check_core(c)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
