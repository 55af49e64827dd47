//! Pairgoth's API authentication as its code implements it: the challenge at `tour/token`, the signed answer, the AES bearer.
//!
//! Pairgoth's API (`api-webapp/.../server/ApiServlet.kt`, `checkAuthorization`)
//! lets every request through when its `auth` property is `none`, and
//! `/api/tour/token` always; otherwise a request needs
//! `Authorization: Bearer <b>` where `<b>` is `"<session>:<access key>"`
//! encrypted with AES-128/ECB/PKCS5 under the first 16 bytes of the shared
//! secret `auth.shared_secret` and written in URL-safe base64 without
//! padding (`pairgoth-common/.../util/AESCryptograph.kt`, `Cryptograph.webEncrypt`).
//! The access key comes from the challenge (`api/TokenHandler.kt`, and its
//! client `view-webapp/.../web/AuthFilter.kt`, `fetchApiToken`):
//! 1. `GET tour/token` with the bearer of `"<session>:"` answers 401 and the
//!    challenge in `WWW-Authenticate`;
//! 2. `POST tour/token` `{"session", "email", "signature"}`, the signature
//!    being the hex SHA-256 of `"<session>:<challenge>:<email>"`, answers
//!    `{"token": <access key>}`, valid 30 days.

use aws_lc_rs::cipher::{AES_128, PaddedBlockEncryptingKey, UnboundCipherKey};
use aws_lc_rs::digest::{SHA256, digest};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::config::SharedSecret;

impl SharedSecret {
    /// `Cryptograph.webEncrypt`: AES-128/ECB/PKCS5, URL-safe base64 without padding.
    pub fn web_encrypt(&self, clear: &str) -> Result<String, String> {
        let key = UnboundCipherKey::new(&AES_128, &self.0).map_err(|e| e.to_string())?;
        let cipher = PaddedBlockEncryptingKey::ecb_pkcs7(key).map_err(|e| e.to_string())?;
        let mut data = clear.as_bytes().to_vec();
        cipher.encrypt(&mut data).map_err(|e| e.to_string())?;
        Ok(URL_SAFE_NO_PAD.encode(data))
    }

    /// The `Authorization` value for `session` and `access_key` (empty before the challenge).
    pub fn bearer(&self, session: &str, access_key: &str) -> Result<String, String> {
        Ok(format!(
            "Bearer {}",
            self.web_encrypt(&format!("{session}:{access_key}"))?
        ))
    }
}

/// The answer to a challenge: hex SHA-256 of `"<session>:<challenge>:<email>"`.
pub fn signature(session: &str, challenge: &str, email: &str) -> String {
    let hash = digest(&SHA256, format!("{session}:{challenge}:{email}").as_bytes());
    hash.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

/// A new session id: 32 letters and digits, like Pairgoth's `Randomizer.randomString`.
pub fn new_session() -> Result<String, String> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut bytes = [0u8; 32];
    aws_lc_rs::rand::fill(&mut bytes).map_err(|_| "no random bytes for a session id".to_owned())?;
    Ok(bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_sixteen_ascii_characters() {
        assert!(SharedSecret::new("0123456789abcdef").is_ok());
        assert!(SharedSecret::new("short").is_err());
        assert!(SharedSecret::new("0123456789abcdé").is_err());
    }

    #[test]
    fn web_encrypt_is_aes_ecb_in_url_safe_base64() {
        // AES-128 of one PKCS#7-padded block is one block: 16 bytes, 22 base64 characters.
        let secret = SharedSecret::new("                ").unwrap();
        let one = secret.web_encrypt("abc:").unwrap();
        assert_eq!(one.len(), 22);
        assert!(!one.contains(['+', '/', '=']));
        // ECB needs no random bytes: the same text gives the same bearer (Pairgoth relies on it).
        assert_eq!(one, secret.web_encrypt("abc:").unwrap());
        assert_eq!(secret.web_encrypt(&"x".repeat(16)).unwrap().len(), 43);
    }

    #[test]
    fn known_vectors() {
        // Computed independently: `openssl enc -aes-128-ecb -K <hex of the secret>` and
        // Python's hashlib.sha256.
        let secret = SharedSecret::new("0123456789abcdef").unwrap();
        assert_eq!(
            secret.web_encrypt("session:key").unwrap(),
            "WFBGmkz51QZ2aOqaBoGQqQ"
        );
        assert_eq!(
            signature("s", "c", "e"),
            "960a4afa1ec984a91f579e0cd1f67c7162a053b56b7420fbc6b7ec5f06def748"
        );
        assert_eq!(new_session().unwrap().len(), 32);
    }
}
