//! A private Mosquitto on a free port, with persistence, that a test may stop and restart (never the system broker).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::free_port;

/// A `mosquitto -c <conf>` child process.
pub(crate) struct Broker {
    pub(crate) port: u16,
    conf: PathBuf,
    child: Option<Child>,
}

impl Broker {
    /// Starts a broker on a free loopback port; its persistence file lives in `dir`.
    pub(crate) fn start(dir: &std::path::Path) -> Self {
        writable_by_the_broker(dir);
        let port = free_port();
        let conf = dir.join("mosquitto.conf");
        let text = format!(
            "listener {port} 127.0.0.1\nallow_anonymous true\npersistence true\npersistence_location {}/\n",
            dir.display()
        );
        std::fs::write(&conf, text).expect("write mosquitto.conf");
        let mut broker = Self {
            port,
            conf,
            child: None,
        };
        broker.restart();
        broker
    }

    /// Starts a broker on a free loopback port with a whole config of the test's own:
    /// `conf(port)` gives its text (a listener on that port included).
    pub(crate) fn start_with(
        dir: &std::path::Path,
        name: &str,
        conf: impl Fn(u16) -> String,
    ) -> Self {
        writable_by_the_broker(dir);
        let port = free_port();
        let path = dir.join(format!("{name}.conf"));
        std::fs::write(&path, conf(port)).expect("write the mosquitto config");
        let mut broker = Self {
            port,
            conf: path,
            child: None,
        };
        broker.restart();
        broker
    }

    /// (Re)starts the process on the same port and waits until it accepts connections (30 s at
    /// most: a loaded machine starts it late).
    pub(crate) fn restart(&mut self) {
        let child = Command::new("mosquitto")
            .arg("-c")
            .arg(&self.conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn mosquitto (install mosquitto)");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "private mosquitto did not listen on {}",
                self.port
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends `signal` (`STOP`, `CONT`, `KILL`, ...) to the broker process, if it runs.
    pub(crate) fn signal(&self, signal: &str) {
        if let Some(child) = &self.child {
            let _ = Command::new("kill")
                .args([format!("-{signal}"), child.id().to_string()])
                .status();
        }
    }

    /// Stops the broker with SIGTERM (it saves its persistence file) and waits for it.
    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("kill")
                .args(["-TERM", &child.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(5);
            while !matches!(child.try_wait(), Ok(Some(_))) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Mosquitto started as root drops to its own user (`mosquitto`), which cannot write a 0700
/// temporary directory of root's: every save of the persistence file then failed ("Permission
/// denied" in its log), so a restart lost the persistent sessions and what the broker queued
/// for them, and a test blamed the daemon for it. The directory is a test's own.
fn writable_by_the_broker(dir: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777))
        .expect("open the broker's persistence directory to its user");
}

impl Drop for Broker {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
