//! In-process pseudo-terminals: the device holds the master, the host opens the slave path like a serial port.

use crate::error::HardwareError;
use nix::fcntl::{FcntlArg, FdFlag, OFlag, fcntl};
use nix::pty::openpty;
use nix::sys::termios::{SetArg, cfmakeraw, tcgetattr, tcsetattr};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The device side of a pseudo-terminal: read what the host writes, write what the device sends.
/// Dropping it closes the master, which the host sees as a hang-up (an unplugged device).
#[derive(Debug)]
pub struct PtyDevice {
    master: AsyncFd<OwnedFd>,
    /// Kept open so the slave stays configured (raw) and the master never reads EIO
    /// while the host has not opened the slave yet.
    _slave: OwnedFd,
    path: PathBuf,
}

impl PtyDevice {
    /// Creates a pseudo-terminal in raw mode (no echo, no CR/LF translation). Needs a runtime.
    pub fn open() -> Result<Self, HardwareError> {
        let pty = openpty(None, None)?;
        // Not inherited by programs this process starts (a daemon under test): a child holding
        // the master would keep the port alive after the device is dropped (unplugged).
        for fd in [&pty.master, &pty.slave] {
            fcntl(fd, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC))?;
        }
        let mut termios = tcgetattr(&pty.slave)?;
        cfmakeraw(&mut termios);
        tcsetattr(&pty.slave, SetArg::TCSANOW, &termios)?;
        let path = nix::unistd::ttyname(&pty.slave)?;
        fcntl(&pty.master, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
        // `AsyncFd::new` is deprecated for types whose fd can be closed or replaced behind the
        // registration; an `OwnedFd` moved into the `AsyncFd` cannot be, so this use is sound
        // (and `AsyncFd::register` would need `unsafe`, denied in this workspace).
        #[allow(deprecated)]
        let master = AsyncFd::new(pty.master).map_err(|source| HardwareError::Io {
            port: path.display().to_string(),
            source,
        })?;
        Ok(Self {
            master,
            _slave: pty.slave,
            path,
        })
    }

    /// The slave path (`/dev/pts/N`) the host opens.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl AsyncRead for PtyDevice {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.master.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard
                .try_io(|fd| nix::unistd::read(fd.get_ref(), unfilled).map_err(io::Error::from))
            {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(err)) => return Poll::Ready(Err(err)),
                Err(_would_block) => {}
            }
        }
    }
}

impl AsyncWrite for PtyDevice {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            let mut guard = ready!(self.master.poll_write_ready(cx))?;
            match guard.try_io(|fd| nix::unistd::write(fd.get_ref(), data).map_err(io::Error::from))
            {
                Ok(result) => return Poll::Ready(result),
                Err(_would_block) => {}
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// A stable path (like `/dev/serial/by-id/...`) for a simulated device: a symlink to the current
/// pty, replaced atomically on replug and removed while unplugged.
#[derive(Debug, Clone)]
pub struct StableLink {
    path: PathBuf,
}

impl StableLink {
    /// A link at `path` (its directory must exist).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// The stable path to give the host.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Points the link at `target`, atomically (write a temporary link, rename over).
    pub fn point_to(&self, target: &Path) -> Result<(), HardwareError> {
        let err = |source| HardwareError::Link {
            path: self.path.clone(),
            source,
        };
        let tmp = self.path.with_extension("tmp-link");
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(target, &tmp).map_err(err)?;
        std::fs::rename(&tmp, &self.path).map_err(err)
    }

    /// Removes the link (the device is unplugged); an absent link is fine.
    pub fn remove(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn bytes_cross_a_pty_unchanged_both_ways() {
        let mut device = PtyDevice::open().unwrap();
        let mut host =
            crate::open_serial(device.path(), &crate::SerialSettings::default()).unwrap();
        device.write_all(b"$BEAT,1*0000\n").await.unwrap();
        let mut got = [0u8; 13];
        host.read_exact(&mut got).await.unwrap();
        // Raw mode: no LF to CR LF translation, no echo.
        assert_eq!(&got, b"$BEAT,1*0000\n");
        host.write_all(b"$SNAP?\n").await.unwrap();
        let mut got = [0u8; 7];
        device.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"$SNAP?\n");
    }

    #[test]
    fn stable_link_follows_replugs() {
        let dir = tempfile::tempdir().unwrap();
        let link = StableLink::new(dir.path().join("usb-sim-board"));
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(&a, b"a").unwrap();
        std::fs::write(&b, b"b").unwrap();
        link.point_to(&a).unwrap();
        assert_eq!(std::fs::read(link.path()).unwrap(), b"a");
        link.point_to(&b).unwrap();
        assert_eq!(std::fs::read(link.path()).unwrap(), b"b");
        link.remove();
        assert!(!link.path().exists());
    }
}
