import type { ReactNode } from 'react';
import { Bucket } from './pages/Bucket';
import { Chat } from './pages/Chat';
import { DocumentPage } from './pages/DocumentPage';
import { Documents } from './pages/Documents';
import { EndUsers } from './pages/EndUsers';
import { Grep } from './pages/Grep';
import { Search } from './pages/Search';
import { Upload } from './pages/Upload';
import { Usage } from './pages/Usage';

/** The console's pages: the link named `label` in the navigation opens `path` (a hash route). */
export const PAGES: { path: string; label: string; element: ReactNode }[] = [
  { path: '/documents', label: 'Documents', element: <Documents /> },
  { path: '/upload', label: 'Upload', element: <Upload /> },
  { path: '/search', label: 'Search', element: <Search /> },
  { path: '/grep', label: 'Grep', element: <Grep /> },
  { path: '/chat', label: 'Chat', element: <Chat /> },
  { path: '/end-users', label: 'End users', element: <EndUsers /> },
  { path: '/usage', label: 'Usage', element: <Usage /> },
  { path: '/bucket', label: 'Bucket', element: <Bucket /> },
];

/** Pages reached from others, not from the navigation: a document at its lines (`?line=12`). */
export const INNER_PAGES: { path: string; element: ReactNode }[] = [
  { path: '/documents/:id', element: <DocumentPage /> },
];
