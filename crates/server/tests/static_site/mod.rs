//! `voicebox export-web` served by a plain static file server, for the tests
//! of the environment page with no Voicebox server behind it.
#![allow(dead_code)]

use crate::common::browser::Browser;

/// `voicebox export-web` written to a folder and served by a plain static
/// file server (nothing of Voicebox behind it); stopped on drop.
pub struct StaticSite {
    pub folder: tempfile::TempDir,
    server: std::process::Child,
    pub port: u16,
}

impl StaticSite {
    pub fn export() -> StaticSite {
        let folder = tempfile::TempDir::new().unwrap();
        voicebox_test_support::succeed(
            std::process::Command::new(env!("CARGO_BIN_EXE_voicebox"))
                .arg("export-web")
                .arg(folder.path()),
        );
        let port = voicebox_test_support::free_port();
        let server = std::process::Command::new("python3")
            .args([
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                &port.to_string(),
            ])
            .current_dir(folder.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        StaticSite {
            folder,
            server,
            port,
        }
    }

    /// A site exported and open in a new browser, where the browser is
    /// installed; `None` where it is not (skipped as `browser::available`
    /// says).
    pub async fn visited() -> Option<(StaticSite, Browser)> {
        if !crate::common::browser::available() {
            return None;
        }
        let site = StaticSite::export();
        let browser = Browser::start().await;
        site.visit(&browser).await;
        Some((site, browser))
    }

    /// Opens the page in `browser` and waits for it.
    pub async fn visit(&self, browser: &Browser) {
        browser
            .open_environment(&format!("http://127.0.0.1:{}/", self.port))
            .await;
    }

    /// Stops serving (the folder stays), as a site that went away.
    pub fn stop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err(),
            "the site still answers"
        );
    }
}

impl Drop for StaticSite {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
