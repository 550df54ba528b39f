"""`gin serve` refuses bad options before it opens anything: exit 2 and one line on stderr."""

from __future__ import annotations

import pytest

from ginrummy.cli.main import main


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--bot-delay", "-1"], "--bot-delay -1.0: the delay is 0 seconds or more"),
        (["--bot-delay", "nan"], "--bot-delay nan: the delay is 0 seconds or more"),
        (["--log-level", "loud"], "--log-level 'loud' is not allowed; allowed: critical, error, warning, info, debug"),
    ],
)
def test_bad_options_exit_2_with_one_line(capsys, argv, needle):
    status = main(["serve", *argv])
    out = capsys.readouterr()
    assert status == 2
    assert out.out == ""
    assert out.err == f"gin: error: {needle}\n"
