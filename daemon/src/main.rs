//! Entry point of the `goban-bridge` binary: parses the command line and runs the chosen command.
//!
//! Every module (including `http`) is declared in `lib.rs`: the daemon is a
//! library plus this thin binary, so do not declare modules here.

fn main() -> std::process::ExitCode {
    goban_bridge::cli::main()
}
