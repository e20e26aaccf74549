import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { makeStore, persistAndSync } from './lib/store';
import { createRouter } from './app/routes';
import './styles/global.css';

const store = makeStore();
persistAndSync(store);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={createRouter()} />
    </Provider>
  </StrictMode>,
);
