"""pytest fixtures of the conformance suite: one table of independent devices and one daemon per test, always cleaned up."""
import tempfile
import pathlib

import pytest

from paths import CONFORMANCE, DEVICES_FOUND, UNDER_CI

if not DEVICES_FOUND:
    if UNDER_CI:
        raise pytest.UsageError(f"CI=true but the independent devices are missing at {CONFORMANCE}: set GOBAN_CONFORMANCE")
    # A plain clone: nothing to test against. Collect nothing, say so, exit 0.
    collect_ignore_glob = ["test_*.py"]
    SKIP_REASON = f"skipped: the independent devices are not at {CONFORMANCE} (set GOBAN_CONFORMANCE)"

    def pytest_report_header(config):
        return SKIP_REASON

    def pytest_terminal_summary(terminalreporter):
        terminalreporter.write_line(SKIP_REASON)

    def pytest_sessionfinish(session, exitstatus):
        if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            session.exitstatus = pytest.ExitCode.OK
else:
    from harness import Daemon, Table


@pytest.fixture
def table():
    t = Table()
    yield t
    t.close()


@pytest.fixture
def workdir():
    with tempfile.TemporaryDirectory(prefix="goban-conf-") as d:
        yield pathlib.Path(d)


@pytest.fixture
def daemon(table, workdir, request):
    """The real daemon on `table`, autostarted; its log is printed when the test fails."""
    d = Daemon(workdir, [table.spec()])
    try:
        yield d.start()
    finally:
        d.stop()
        if getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed:
            print(f"--- daemon log (tail) ---\n{d.log_tail()}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)
