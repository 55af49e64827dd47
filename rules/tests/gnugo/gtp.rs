//! One GNU Go process over GTP, at the lowest CPU priority (`nice -n 19`), so that a long
//! cross-check only uses cycles nobody else wants on a shared machine.
#![allow(unreachable_pub)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The GNU Go binary of Debian's `gnugo` package.
pub const GNUGO: &str = "/usr/games/gnugo";

pub struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    /// Starts `gnugo --mode gtp <rules_flag> --level 10` under `nice -n 19`.
    pub fn start(rules_flag: &str) -> Self {
        let mut child = Command::new("nice")
            .args([
                "-n", "19", GNUGO, "--mode", "gtp", rules_flag, "--level", "10",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("nice /usr/games/gnugo: apt-get install -y gnugo");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command; the answer's text (`Ok` for `=`, `Err` for `?`), lines joined
    /// by spaces.
    pub fn ask(&mut self, cmd: &str) -> Result<String, String> {
        writeln!(self.stdin, "{cmd}").map_err(|e| e.to_string())?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let read = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| e.to_string())?;
            if read == 0 || line.trim().is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let body = answer
            .get(1..)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if answer.starts_with('=') {
            Ok(body)
        } else {
            Err(body)
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.ask("quit");
        let _ = self.child.wait();
    }
}
