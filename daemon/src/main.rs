//! Entry point of the `goban-bridge` binary: parses the command line and runs the chosen command.

mod hub;

fn main() {
    let _ = std::mem::size_of::<hub::Hub>();
}
