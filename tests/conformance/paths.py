"""Where the conformance suite finds the independent devices, which live beside the repository, never inside it."""
import os
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
CONFORMANCE = pathlib.Path(os.environ.get("GOBAN_CONFORMANCE", REPO.parent / "shared" / "conformance"))
DEVICES_FOUND = (CONFORMANCE / "devices.py").is_file() and (CONFORMANCE / "wire.py").is_file()
UNDER_CI = os.environ.get("CI") == "true"
