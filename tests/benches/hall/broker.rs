//! The bench's own Mosquitto: on a free loopback port, with `set_tcp_nodelay true` as
//! `deploy/mosquitto.conf` sets it, so that the MQTT figures do not depend on how the
//! machine's broker happens to be configured. `GOBAN_HALL_MQTT_PORT` uses a running broker instead.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// A private broker, stopped when dropped.
pub(super) struct PrivateBroker {
    pub(super) port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

impl PrivateBroker {
    /// Starts `mosquitto` and waits until it accepts connections (5 s at most).
    pub(super) fn start() -> Result<Self> {
        let port = std::net::TcpListener::bind(("127.0.0.1", 0))?
            .local_addr()?
            .port();
        let dir = tempfile::Builder::new()
            .prefix("goban-hall-broker-")
            .tempdir()?;
        let conf = dir.path().join("mosquitto.conf");
        std::fs::write(
            &conf,
            format!(
                "listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n"
            ),
        )?;
        let child = Command::new("mosquitto")
            .arg("-c")
            .arg(&conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context(
                "start mosquitto (install it, or set GOBAN_HALL_MQTT_PORT to a running broker)",
            )?;
        let broker = Self {
            port,
            child,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                bail!("the bench's mosquitto did not listen on port {port} within 5 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(broker)
    }
}

impl Drop for PrivateBroker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
