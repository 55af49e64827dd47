"""pytest fixtures of the conformance suite: one table of independent devices and one daemon per test, always cleaned up."""
import tempfile
import pathlib

import pytest

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
