"""The kernel-level wall, attacked from a payload the sandbox runs (a conftest.py a model wrote, then pytest):
root-only kernel knobs (/proc/sys, sysrq, keyrings), set-uid files left for the host, resource exhaustion, and
git directories planted for the host's next `git status`. Each case is judged by its effect on the host: a
sysctl's value, a marker file, a mode bit, a file's size, a folder left behind. They run as root in CI, where
the sandbox's user namespace, read-only /proc/sys and pids cgroup are what stand in the way.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from slmcode.environment import LocalEnvironment, ossandbox
from slmcode.environment.aftercheck import strip_setid
from slmcode.environment.limits import PIDS_ROOTS, SandboxLimits, process_limit_holds, remove_pending
from slmcode.tools.shell import ShellResult
from tests.sandboxcheck import needs_sandbox
from tests.tools.test_attacks import MARK, SECRET, digest, run_python, tries, world  # noqa: F401 (a fixture)

PYTHON = sys.executable

pytestmark = needs_sandbox


def run_in(
    ws: Path, code: str, *, limits: SandboxLimits | None = None, permission: str = "auto", timeout: float = 30
) -> ShellResult:
    """Write the payload into the workspace and run it in the sandbox with `limits` (the defaults if None)."""
    (ws / "payload.py").write_text(textwrap.dedent(code))
    environment = LocalEnvironment(ws, writable=permission == "auto", limits=limits)
    return run_python(ws, environment, f"{PYTHON} payload.py", timeout)


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """A workspace that is no git repository (a folder the user unpacked), with a secret beside it."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text(SECRET + "\n")
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (ws / "docs").mkdir()
    (ws / "docs" / "guide.md").write_text("# guide\n")
    return ws


def host_git_status(folder: Path) -> None:
    """The user's own next `git status` there (a git-aware prompt runs the same)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    subprocess.run(["git", "status"], cwd=folder, capture_output=True, env=env, timeout=30)
    subprocess.run(["git", "add", "-A", "--dry-run"], cwd=folder, capture_output=True, env=env, timeout=30)


# ---- root-only kernel knobs -------------------------------------------------------------------------------


def _other(value: str) -> str:
    return "1" if value.strip() != "1" else "0"


# (sysctl, the value the payload writes given the current one)
SYSCTLS = [
    ("kernel/core_pattern", lambda v, marker: f"|/usr/bin/touch {marker}"),
    ("kernel/core_uses_pid", lambda v, marker: _other(v)),
    ("kernel/randomize_va_space", lambda v, marker: "0" if v.strip() != "0" else "2"),
    ("vm/overcommit_memory", lambda v, marker: _other(v)),
    ("fs/protected_symlinks", lambda v, marker: _other(v)),
    ("kernel/sysrq", lambda v, marker: "0" if v.strip() != "0" else "1"),
]


@pytest.mark.parametrize(("name", "value"), SYSCTLS, ids=[c[0] for c in SYSCTLS])
def test_no_sysctl_of_the_host_changes(plain: Path, tmp_path: Path, name: str, value) -> None:
    path = Path("/proc/sys") / name
    if not path.exists():
        pytest.skip(f"no {path} here")
    before = path.read_text()
    marker = tmp_path / "core-handler-ran"
    # The attack: a pipe in core_pattern, then a crash; the kernel would run the program as root.
    code = tries(f"open('{path}', 'w').write({value(before, marker)!r})") + textwrap.dedent("""
        import os
        pid = os.fork()
        if pid == 0:
            os.abort()
        os.waitpid(pid, 0)
        """)
    try:
        result = run_in(plain, code)
        time.sleep(0.5)  # a core handler would run asynchronously
        after = path.read_text()
    finally:
        if path.read_text() != before:  # never leave the host changed, whatever the assertion says
            path.write_text(before)
    assert after == before
    assert MARK not in result.output and not marker.exists()


PROC_ESCAPES = [
    (
        "unmount the read-only /proc/sys",
        "import ctypes; ctypes.CDLL(None, use_errno=True).umount2(b'/proc/sys', 2) == 0 or 1/0",
    ),
    (
        "remount /proc/sys writable",
        "import ctypes; ctypes.CDLL(None).mount(None, b'/proc/sys', None, 0x20 | 0x1000, None) == 0 or 1/0",
    ),
    (
        "a fresh proc mount",
        "import ctypes, os; os.makedirs('p', exist_ok=True); ctypes.CDLL(None).mount(b'proc', "
        "b'p', b'proc', 0, None) == 0 or 1/0; open('p/sys/kernel/core_pattern', 'w').write('x')",
    ),
    ("a nested user namespace", "import os; os.unshare(os.CLONE_NEWUSER | os.CLONE_NEWNS)"),
    ("sysrq", "open('/proc/sysrq-trigger', 'w').write('h')"),
    (
        "irq affinity",
        "open('/proc/irq/default_smp_affinity', 'w').write(open('/proc/irq/default_smp_affinity').read())",
    ),
]


@pytest.mark.parametrize(("name", "statement"), PROC_ESCAPES, ids=[c[0] for c in PROC_ESCAPES])
def test_proc_stays_read_only_whatever_the_payload_tries(plain: Path, name: str, statement: str) -> None:
    before = Path("/proc/sys/kernel/core_pattern").read_text()
    code = tries(statement) + tries("open('/proc/sys/kernel/core_pattern', 'w').write('x')")
    try:
        result = run_in(plain, code)
    finally:
        if Path("/proc/sys/kernel/core_pattern").read_text() != before:
            Path("/proc/sys/kernel/core_pattern").write_text(before)
    assert MARK not in result.output, result.output
    assert result.output.count("blocked") == 2


def test_a_command_runs_as_nobody_and_its_files_are_the_users(plain: Path) -> None:
    result = run_in(
        plain,
        "import os; print('ids', os.getuid(), os.geteuid(), os.getgid());"
        " print('map', open('/proc/self/uid_map').read().split());"
        " open('made.txt', 'w').write('by the command\\n')",
    )
    assert "ids 65534 65534 65534" in result.output, result.output
    assert f"map ['65534', '{os.getuid()}', '1']" in result.output
    made = plain / "made.txt"
    assert (made.stat().st_uid, made.stat().st_gid) == (os.getuid(), os.getgid())
    with made.open("a") as handle:  # the user's own later edit
        handle.write("by the user\n")
    assert made.read_text() == "by the command\nby the user\n"


def test_the_hosts_keyrings_are_not_listed(plain: Path) -> None:
    host_keys = [line.split()[0] for line in Path("/proc/keys").read_text().splitlines() if line.strip()]
    result = run_in(plain, tries("print(open('/proc/keys').read() + open('/proc/key-users').read())"))
    for key in host_keys:
        assert key not in result.output


# A payload that adds a key to the session, user and user-session keyrings through the syscalls themselves
# (add_key, keyctl), not /proc/keys: as root, the jail's kernel uid 0 reached the host root's keyrings.
ADD_KEYS = """
import ctypes, os, platform
libc = ctypes.CDLL(None, use_errno=True)
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
for ring in (-3, -4, -5):  # KEY_SPEC_SESSION_KEYRING, _USER_KEYRING, _USER_SESSION_KEYRING
    key = libc.syscall(ADD_KEY, b"user", b"NAME", b"x", 1, ctypes.c_long(ring))
    print("add_key", ring, key, os.strerror(ctypes.get_errno()))
print("keyctl", libc.syscall(KEYCTL, 0, ctypes.c_long(-4), 0), os.strerror(ctypes.get_errno()))
"""


def test_no_key_reaches_the_hosts_keyrings(plain: Path) -> None:
    name = f"slmcode-probe-{os.getpid()}-{time.monotonic_ns()}"
    result = run_in(plain, ADD_KEYS.replace("NAME", name))
    assert "add_key" in result.output, result.output  # the payload ran
    assert name not in Path("/proc/keys").read_text()  # the host's keyrings hold no key of the payload's
    assert all(" -1 " in line for line in result.output.splitlines() if line.startswith(("add_key", "keyctl")))


# ---- no set-uid or set-gid file left behind ---------------------------------------------------------------

SETID = [
    (
        "chmod 4755 a new file",
        "open('tool', 'w').write('#!/bin/sh\\n'); __import__('os').chmod('tool', 0o4755)",
        "tool",
    ),
    ("chmod 2755 a new file", "open('tool', 'w').write('x'); __import__('os').chmod('tool', 0o2755)", "tool"),
    ("chmod 6755 the user's file", "__import__('os').chmod('src/calc.py', 0o6755)", "src/calc.py"),
    ("created set-uid by open", "import os; os.close(os.open('tool', os.O_CREAT | os.O_WRONLY, 0o4755))", "tool"),
    ("a copy of passwd", "import shutil; shutil.copy2('/usr/bin/passwd', 'deep/er/pw')", "deep/er/pw"),
    (
        "deep in the tree",
        "import os; os.makedirs('a/b/c/d'); open('a/b/c/d/t', 'w').write('x'); os.chmod('a/b/c/d/t', 0o4711)",
        "a/b/c/d/t",
    ),
]


@pytest.mark.parametrize(("name", "statement", "rel"), SETID, ids=[c[0] for c in SETID])
def test_no_set_uid_or_set_gid_file_survives_a_command(plain: Path, name: str, statement: str, rel: str) -> None:
    if "passwd" in statement and not os.path.exists("/usr/bin/passwd"):
        pytest.skip("no /usr/bin/passwd here")
    (plain / "deep" / "er").mkdir(parents=True)
    result = run_in(plain, statement)
    if (plain / rel).exists():
        mode = (plain / rel).stat().st_mode
        assert not mode & (stat.S_ISUID | stat.S_ISGID), oct(mode)
    # Refused as it happened (the seccomp filter) or cleared after (the walk, where no filter runs): said either way.
    assert "PermissionError" in result.output or (
        "commands may not leave set-uid or set-gid files" in result.output and rel in result.output
    ), result.output


def test_a_set_uid_bit_set_through_the_32_bit_syscall_table_is_refused(plain: Path) -> None:
    # int 0x80 reaches the i386 syscall table from a 64-bit program: a filter that knows only x86_64's misses it.
    source = plain.parent / "int80.c"
    source.write_text(
        '#include <stdio.h>\nstatic char path[] = "victim";\nint main(void) { long r;\n'
        '  __asm__ volatile ("int $0x80" : "=a"(r) : "a"(15), "b"(path), "c"(04755) : "memory");\n'
        '  printf("chmod %ld\\n", r); return 0; }\n'
    )
    built = subprocess.run(["gcc", "-no-pie", "-static", "-o", str(plain / "int80"), str(source)], capture_output=True)
    if os.uname().machine != "x86_64" or built.returncode != 0:
        pytest.skip("needs x86_64 and gcc with static libc")
    (plain / "victim").write_text("x")
    jail = ossandbox.prepare(plain, writable=True, network=False)
    subprocess.run(jail.argv(["./int80"]), cwd=plain, env=jail.env, capture_output=True, timeout=60)
    jail.after_command()
    assert not (plain / "victim").stat().st_mode & stat.S_ISUID


def test_the_walk_after_a_command_clears_set_id_bits_where_no_filter_runs(tmp_path: Path) -> None:
    started = time.time_ns()
    (tmp_path / "a" / "b").mkdir(parents=True)
    for rel, mode in (("a/b/su", 0o4755), ("sg", 0o2755), ("plain", 0o755)):
        (tmp_path / rel).write_text("x")
        (tmp_path / rel).chmod(mode)
    (tmp_path / "link").symlink_to("/usr/bin/passwd")
    walked = strip_setid(tmp_path, started)
    assert sorted(walked.stripped) == ["a/b/su", "sg"]
    assert all(not (tmp_path / r).stat().st_mode & 0o6000 for r in ("a/b/su", "sg"))
    assert (tmp_path / "plain").stat().st_mode & 0o777 == 0o755
    assert os.stat("/usr/bin/passwd").st_mode & stat.S_ISUID or not os.path.exists("/usr/bin/passwd")
    # A set-uid file the user had before the command started is the user's, and keeps its bit.
    (tmp_path / "own").write_text("x")
    (tmp_path / "own").chmod(0o4755)
    assert strip_setid(tmp_path, time.time_ns() + 10 * 10**9).stripped == []
    assert (tmp_path / "own").stat().st_mode & stat.S_ISUID


def test_a_set_uid_file_in_scratch_is_cleared_too(plain: Path) -> None:
    run_in(plain, "import os; p = os.path.join(os.environ['HOME'], 'su'); open(p, 'w').write('x'); os.chmod(p, 0o4755)")
    made = ossandbox.scratch_dir(plain) / "home" / "su"
    assert made.exists() and not made.stat().st_mode & stat.S_ISUID


def test_the_workspace_is_mounted_nosuid_inside(plain: Path) -> None:
    result = run_in(
        plain, "import os; ws = os.getcwd(); print([l for l in open('/proc/self/mountinfo') if l.split()[4] == ws][0])"
    )
    assert "nosuid" in result.output.split("\n")[0], result.output


# ---- limits -----------------------------------------------------------------------------------------------

FORK_BOMB = """
import os, time
forked = 0
for _ in range(200):  # bounded even if the limit did not hold
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(2)
        os._exit(0)
    forked += 1
print('forked', forked)
"""


def test_a_fork_bomb_stops_at_the_process_limit(plain: Path) -> None:
    if not process_limit_holds():
        pytest.skip("root without a pids cgroup: the process limit cannot hold here (status() says so)")
    # Earlier tests in this worker may still hold a jail (and its cgroup) the garbage collector has not dropped:
    # what must go is the cgroup of this command line.
    before = {p for root in PIDS_ROOTS for p in root.glob(f"slmcode-{os.getpid()}-*")}
    result = run_in(plain, FORK_BOMB, limits=SandboxLimits(max_processes=32))
    forked = int(result.output.split("forked", 1)[1].split()[0])
    assert forked < 32, result.output
    assert remove_pending(wait=5) == []  # the command line's cgroup goes once its last process has
    assert {p for root in PIDS_ROOTS for p in root.glob(f"slmcode-{os.getpid()}-*")} - before == set()


def test_a_memory_hog_is_refused(plain: Path) -> None:
    result = run_in(
        plain, tries("b = bytearray(1024 * 1024 * 1024); b[-1] = 1"), limits=SandboxLimits(max_memory_mb=256)
    )
    assert MARK not in result.output and "MemoryError" in result.output, result.output


def test_a_huge_file_stops_at_the_file_size_limit(plain: Path) -> None:
    result = run_in(
        plain,
        f"with open('big.bin', 'wb') as f:\n    for _ in range(64):\n        f.write(b'x' * 2**20)\nprint('{MARK}')\n",
        limits=SandboxLimits(max_file_mb=4),
    )
    assert MARK not in result.output and result.exit_code != 0
    assert (plain / "big.bin").stat().st_size <= 4 * 2**20


def test_a_busy_loop_is_killed_at_the_cpu_limit(plain: Path) -> None:
    result = run_in(
        plain, f"while True:\n    pass\nprint('{MARK}')\n", limits=SandboxLimits(max_cpu_seconds=1), timeout=60
    )
    assert not result.timed_out and result.exit_code != 0, result.output


def test_scratch_filled_past_its_cap_is_emptied(plain: Path) -> None:
    result = run_in(
        plain,
        "import os\nwith open(os.path.join(os.environ['HOME'], 'fill'), 'wb') as f:\n"
        "    for _ in range(24):\n        f.write(os.urandom(2**20))\n",
        limits=SandboxLimits(max_scratch_mb=16),
    )
    scratch = ossandbox.scratch_dir(plain)
    assert "emptied the scratch folder" in result.output, result.output
    assert not (scratch / "home" / "fill").exists() and (scratch / "home").is_dir()
    assert (scratch / "workspace").read_text() == str(plain)  # its owner record stays: the sweep keeps it


def test_scratch_filled_a_little_per_command_is_emptied_when_the_sum_passes_its_cap(plain: Path) -> None:
    fill = (
        "import os\nwith open(os.path.join(os.environ['HOME'], 'fill{n}'), 'wb') as f:\n"
        "    for _ in range(10):\n        f.write(os.urandom(2**20))\n    os.fsync(f.fileno())\n"
    )
    first = run_in(plain, fill.format(n=1), limits=SandboxLimits(max_scratch_mb=16))
    assert "emptied" not in first.output and (ossandbox.scratch_dir(plain) / "home" / "fill1").exists()
    second = run_in(plain, fill.format(n=2), limits=SandboxLimits(max_scratch_mb=16))
    assert "emptied the scratch folder" in second.output, second.output
    assert not (ossandbox.scratch_dir(plain) / "home" / "fill2").exists()


def test_tmp_is_a_capped_tmpfs(plain: Path) -> None:
    result = run_in(
        plain, tries("open('/tmp/fill', 'wb').write(b'x' * (48 * 2**20))"), limits=SandboxLimits(max_scratch_mb=16)
    )
    assert MARK not in result.output and "blocked OSError" in result.output


# ---- no git directory left behind -------------------------------------------------------------------------


def _bare(folder: str, marker: Path, *, worktree: str = "..") -> str:
    return (
        f"import os; os.makedirs('{folder}/objects'); os.makedirs('{folder}/refs/heads');"
        f" open('{folder}/HEAD', 'w').write('ref: refs/heads/main\\n');"
        f" open('{folder}/config', 'w').write('[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n"
        f"\\tworktree = {worktree}\\n\\tfsmonitor = touch {marker}\\n')"
    )


PLANTED = [
    (".git at the root with fsmonitor", lambda m: _bare(".git", m), ".git", "."),
    (
        ".git at the root with a clean filter",
        lambda m: (
            _bare(".git", m).replace("fsmonitor", "x") + "; open('.git/config', 'a').write("
            f"'[filter \"evil\"]\\n\\tclean = touch {m}\\n'); open('.gitattributes', 'w').write('* filter=evil\\n')"
        ),
        ".git",
        ".",
    ),
    (
        "git init at the root",
        lambda m: (
            "import subprocess; subprocess.run(['git', 'init', '-q'], check=True);"
            f" open('.git/config', 'a').write('[core]\\n\\tfsmonitor = touch {m}\\n')"
        ),
        ".git",
        ".",
    ),
    (
        "a gitfile at the root",
        lambda m: _bare("evil", m, worktree="..") + "; open('.git', 'w').write('gitdir: evil\\n')",
        ".git",
        ".",
    ),
    ("a bare repository under another name", lambda m: _bare("docs_bare", m, worktree="."), "docs_bare", "docs_bare"),
    (
        "a bare repository nested deeper",
        lambda m: "import os; os.makedirs('a/b/c');" + _bare("a/b/c/bare", m, worktree="."),
        "a/b/c/bare",
        "a/b/c/bare",
    ),
    (
        "git init --bare",
        lambda m: (
            "import subprocess; subprocess.run(['git', 'init', '-q', '--bare', 'vendor.git'], check=True);"
            f" open('vendor.git/config', 'a').write('[core]\\n\\tfsmonitor = touch {m}\\n')"
        ),
        "vendor.git",
        "vendor.git",
    ),
]


@pytest.mark.parametrize(("name", "plant", "rel", "status_in"), PLANTED, ids=[c[0] for c in PLANTED])
def test_no_git_directory_is_left_in_a_workspace(
    plain: Path, tmp_path: Path, name: str, plant, rel: str, status_in: str
) -> None:
    marker = tmp_path / "planted-ran"
    result = run_in(plain, plant(marker))
    assert not os.path.lexists(plain / rel), result.output
    assert "commands may not create .git or .slmcode" in result.output and rel in result.output
    assert not os.path.lexists(plain / "evil" / "HEAD")
    folder = plain / status_in
    folder.mkdir(parents=True, exist_ok=True)
    host_git_status(folder)
    assert not marker.exists()


def test_a_folder_that_becomes_a_git_directory_loses_only_what_made_it_one(plain: Path, tmp_path: Path) -> None:
    marker = tmp_path / "planted-ran"
    result = run_in(plain, _bare("docs", marker, worktree="."))
    assert (plain / "docs" / "guide.md").read_text() == "# guide\n"
    assert not any((plain / "docs" / name).exists() for name in ("HEAD", "objects", "refs"))
    assert "docs/HEAD" in result.output
    host_git_status(plain / "docs")
    assert not marker.exists()


def test_a_bare_repository_in_a_git_workspace_is_removed(world: dict, tmp_path: Path) -> None:
    marker = tmp_path / "planted-ran"
    result = run_in(world["ws"], _bare("src/sub_bare", marker, worktree="."))
    assert not (world["ws"] / "src" / "sub_bare").exists(), result.output
    (world["ws"] / "src").mkdir(exist_ok=True)
    host_git_status(world["ws"] / "src")
    assert not marker.exists()


def test_the_users_own_bare_repository_stays_and_is_read_only(plain: Path, tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", "--bare", str(plain / "fixtures" / "repo.git")], check=True)
    before = digest(plain / "fixtures" / "repo.git")
    marker = tmp_path / "planted-ran"
    result = run_in(
        plain,
        tries(f"open('fixtures/repo.git/config', 'a').write('[core]\\n\\tfsmonitor = touch {marker}\\n')")
        + tries("open('fixtures/repo.git/hooks/post-update', 'w').write('x')"),
    )
    assert MARK not in result.output
    assert digest(plain / "fixtures" / "repo.git") == before
    host_git_status(plain / "fixtures" / "repo.git")
    assert not marker.exists()


# ---- what stays outside the wall's reach ------------------------------------------------------------------


@pytest.mark.xfail(
    reason="a hard link is the file itself: one placed in the workspace from outside (an unpacked "
    "archive, the user) reads the outside file's bytes, and neither the mount namespace nor "
    "a path check can tell it from a workspace file. A command cannot make one: the outside "
    "file is not visible inside, and links across mounts fail (EXDEV).",
    strict=True,
)
def test_a_hard_link_to_an_outside_file_cannot_be_read(plain: Path) -> None:
    os.link(plain.parent / "outside" / "secret.txt", plain / "notes.txt")
    result = run_in(plain, "print(open('notes.txt').read())")
    assert SECRET not in result.output


# ---- toolchains still run inside --------------------------------------------------------------------------

TOOLCHAINS = [
    ("python -m pytest", [PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_t.py"], "1 passed"),
    ("node", ["node", "-e", "console.log(6 * 7)"], "42"),
    ("rustc", ["rustc", "--version"], "rustc "),
    ("cargo", ["cargo", "--version"], "cargo "),
    ("go", ["go", "version"], "go version"),
    ("gcc and the program it built", ["sh", "-c", "gcc -o hello hello.c && ./hello"], "hello from c"),
    ("java", ["java", "-version"], "version"),
]


@pytest.mark.parametrize(("name", "argv", "expected"), TOOLCHAINS, ids=[c[0] for c in TOOLCHAINS])
def test_toolchains_still_run_inside(plain: Path, name: str, argv: list[str], expected: str) -> None:
    jail = ossandbox.prepare(plain, writable=True, network=False)
    if jail.program(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed here")
    (plain / "test_t.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    (plain / "hello.c").write_text('#include <stdio.h>\nint main(void) { puts("hello from c"); return 0; }\n')
    done = subprocess.run(jail.argv(argv), cwd=plain, env=jail.env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and expected in done.stdout + done.stderr, done.stdout + done.stderr


def test_a_planted_scratch_folder_is_refused_and_nothing_outside_changes(plain: Path, tmp_path: Path) -> None:
    """Before: the scratch folder was /tmp/slmcode-scratch-<hash of the workspace>, a name any local user could
    plant as a link to a folder of their choosing, which root's slmcode then chmodded and bound writable into
    the jail. Now it lives under a private parent, and a link found there is refused with one line."""
    from slmcode.environment.sandboxenv import UnsafeScratch, scratch_dir

    chosen = tmp_path / "chosen"
    chosen.mkdir(mode=0o755)
    (chosen / "keep.txt").write_text("mine\n")
    path = scratch_dir(plain)
    assert not str(path).startswith(tempfile.gettempdir())
    shutil.rmtree(path)
    path.symlink_to(chosen)  # what another user would plant
    try:
        with pytest.raises(UnsafeScratch, match="not a private folder"):
            scratch_dir(plain)
        with pytest.raises(UnsafeScratch):  # a command does not run with that scratch
            run_in(plain, "import os; open(os.path.join(os.environ['TMPDIR'], 'x'), 'w').write('x')")
    finally:
        path.unlink()
    assert stat.S_IMODE(chosen.stat().st_mode) == 0o755  # not chmodded
    assert sorted(p.name for p in chosen.iterdir()) == ["keep.txt"]  # nothing written there
