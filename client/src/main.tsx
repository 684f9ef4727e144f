// Mounts the app: the router (HTML5 history) with the shell as its root and the route table.
import { Router } from '@solidjs/router';
import { render } from 'solid-js/web';
import { App } from './App.tsx';
import { routes } from './routes.ts';
import './styles.css';
import './ux.css';

const root = document.getElementById('app');
if (root) render(() => <Router root={App}>{routes}</Router>, root);
