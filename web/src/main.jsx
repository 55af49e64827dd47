// The pages' entry: the daemon serves one HTML shell per page with data-page and data-board; this mounts the page.
import { render } from 'preact';
import '@sabaki/shudan/css/goban.css';
import './style.css';
import { Arbiter } from './arbiter.jsx';
import { Hall } from './hall.jsx';
import { Overlay } from './overlay.jsx';
import { Viewer } from './viewer.jsx';

const PAGES = {
  hall: () => <Hall />,
  board: (id) => <Viewer id={id} />,
  overlay: (id) => <Overlay id={id} />,
  arbiter: () => <Arbiter />,
};

const root = document.getElementById('app');
const { page, board } = root.dataset;
render((PAGES[page] ?? PAGES.hall)(board), root);
