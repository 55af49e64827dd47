// The arbiter token in the console's session: a token the daemon refuses (a wrong one, or one from before the
// daemon restarted with other tokens, or refused to an action) is forgotten and asked for again, never kept.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TOKEN, launch, missing, openPage, screenshot, startDemo, until } from './support.mjs';

const skip = missing() || false;
const KEY = 'goban-bridge.arbiter-token';
const OTHER = 'browser-test-token-after-restart';

describe('the arbiter token kept in the session', { skip }, () => {
  let daemon;
  let browser;
  before(async () => {
    daemon = await startDemo({ boards: 1, speed: 6 });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const stored = (page) => page.evaluate((key) => sessionStorage.getItem(key), KEY);
  const logIn = async (page, token) => {
    await page.fill('#token', token);
    await page.click('button[type=submit]');
    await page.waitForSelector('.panel .board .shudan-vertex');
  };
  /** The login form is back, saying why, and the refused token is no longer in the session. */
  const askedAgain = async (page) => {
    await page.waitForSelector('#token', { timeout: 30000 });
    assert.match(await page.textContent('.login .error'), /refused/);
    assert.equal(await stored(page), null, 'the refused token is not kept in the session');
  };

  test('a stale token found in the session is forgotten and asked for again', async () => {
    const page = await openPage(browser, `${daemon.base}/arbiter`);
    await page.evaluate((key) => sessionStorage.setItem(key, 'a-stale-token'), KEY);
    await page.reload();
    await askedAgain(page);
    // Reloading again asks at once: nothing stale is tried a second time.
    await page.reload();
    await page.waitForSelector('#token');
    assert.equal(await page.$('.console'), null);
  });

  test('a blank token is not taken for a login', async () => {
    const page = await openPage(browser, `${daemon.base}/arbiter`);
    await page.fill('#token', '   ');
    await page.click('button[type=submit]');
    await page.waitForSelector('.login .error');
    assert.equal(await page.$('.console'), null);
    assert.equal(await stored(page), null);
  });

  test('an action refused with 401 forgets the token and asks again', async () => {
    const page = await openPage(browser, `${daemon.base}/arbiter`);
    await logIn(page, TOKEN);
    // The daemon no longer knows the token the page holds (as after a restart with other tokens).
    await page.evaluate((key) => sessionStorage.setItem(key, 'not-the-token'), KEY);
    await page.click('.clock-control button:text-matches("pause clock|resume clock")');
    await askedAgain(page);
    await logIn(page, TOKEN);
    assert.equal(await stored(page), TOKEN);
  });

  test('after the daemon restarts with another token, the console asks for it again', async () => {
    const page = await openPage(browser, `${daemon.base}/arbiter`);
    await logIn(page, TOKEN);
    await page.waitForSelector('.conn.live');
    const port = Number(new URL(daemon.base).port);
    await daemon.stop();
    daemon = await startDemo({ boards: 1, speed: 6, port, token: OTHER });
    await askedAgain(page);
    await screenshot(page, 'arbiter-token-refused');
    await logIn(page, OTHER);
    assert.equal(await stored(page), OTHER);
    await until('the console live again', () => page.$('.conn.live'));
  });
});
