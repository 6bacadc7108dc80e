// The door scanner's service worker: keeps the page and its files so the scanner opens without a
// network. Each file is fetched from the service first (so a new version arrives) and answered from
// the kept copy when the network is gone. API calls are never kept: they pass straight through.
const cacheName = 'tessera-scan-v1';
const files = [
  '/scan',
  '/scan/scan.js',
  '/scan/scan.css',
  '/scan/jsqr.js',
  '/scan/manifest.webmanifest',
  '/scan/icon.svg',
  '/scan/icon-192.png',
  '/scan/icon-512.png',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      .then((cache) => cache.addAll(files))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      .then(async (cache) => {
        // What an earlier version kept and this one no longer asks for (the page's modules were
        // files of their own before the build bundled them into scan.js).
        for (const kept of await cache.keys())
          if (!files.includes(new URL(kept.url).pathname)) await cache.delete(kept);
      })
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (!files.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(cacheName).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((kept) => kept || Response.error())),
  );
});
