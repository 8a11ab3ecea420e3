"""cmake --install puts the package where Debian's python3 finds it, and the .deb ships it."""

import os
import pathlib
import site
import subprocess
import sys
import sysconfig

import pytest

from conftest import SAMPLE_A, SAMPLE_B


@pytest.fixture(scope="module")
def build_dir():
    path = os.environ.get("FUSIONDIFF_BUILD_DIR")
    assert path, "FUSIONDIFF_BUILD_DIR must name the build tree (ctest sets it)"
    return pathlib.Path(path)


def install_dir(build_dir):
    cache = (build_dir / "CMakeCache.txt").read_text()
    for line in cache.splitlines():
        if line.startswith("FUSIONDIFF_PYTHON_INSTALL_DIR:"):
            return line.split("=", 1)[1]
    raise AssertionError("FUSIONDIFF_PYTHON_INSTALL_DIR is not in CMakeCache.txt")


def test_the_install_directory_is_on_the_system_path(build_dir):
    relative = install_dir(build_dir)
    # Debian's python3 searches /usr/lib/python3.X/dist-packages (the .deb's prefix) and
    # /usr/local/lib/python3.X/dist-packages (cmake --install's default prefix), each once it exists.
    assert sys.executable == "/usr/bin/python3" or sys.prefix == "/usr", sys.executable
    for prefix in ("/usr", "/usr/local"):
        assert os.path.join(prefix, relative) in site.getsitepackages(), (prefix, relative, site.getsitepackages())


def test_the_installed_package_compares(build_dir, tmp_path):
    prefix = tmp_path / "usr"
    subprocess.run(["cmake", "--install", str(build_dir), "--prefix", str(prefix)], check=True,
                   stdout=subprocess.DEVNULL)
    package = prefix / install_dir(build_dir) / "fusiondiff"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in ("__init__.py", "errors.py", "report.py", "_fusiondiff" + suffix):
        assert (package / name).is_file(), f"cmake --install did not install {name}"
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    environment["PYTHONPATH"] = str(package.parent)
    script = ("import fusiondiff, sys; r = fusiondiff.compare(sys.argv[1], sys.argv[2]); "
              "print(fusiondiff.__file__); print(len(r.table('kernels')))")
    run = subprocess.run([sys.executable, "-c", script, str(SAMPLE_A), str(SAMPLE_B)], env=environment,
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    imported_from, kernels = run.stdout.splitlines()
    assert pathlib.Path(imported_from).parent == package
    assert int(kernels) > 0


def test_the_deb_ships_the_package(build_dir, tmp_path):
    subprocess.run(["cpack", "-G", "DEB", "-B", str(tmp_path)], cwd=build_dir, check=True,
                   stdout=subprocess.DEVNULL)
    deb = next(tmp_path.glob("*.deb"))
    contents = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    module = f"./usr/{install_dir(build_dir)}/fusiondiff/_fusiondiff{sysconfig.get_config_var('EXT_SUFFIX')}"
    for path in (module, f"./usr/{install_dir(build_dir)}/fusiondiff/__init__.py"):
        assert any(line.endswith(" " + path) for line in contents.splitlines()), f"the .deb lacks {path}"
    depends = subprocess.run(["dpkg-deb", "-f", str(deb), "Depends"], capture_output=True, text=True,
                             check=True).stdout
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert f"python3 (>= {version})" in depends, depends
    recommends = subprocess.run(["dpkg-deb", "-f", str(deb), "Recommends"], capture_output=True, text=True,
                                check=True).stdout
    assert "python3-pandas" in recommends
