import { InMemoryBlobStore, InMemoryConversationStore, InMemoryDocumentStore } from '../support/in-memory-ports.js';
import { blobStoreContract } from './blob-store.contract.js';
import { conversationStoreContract } from './conversation-store.contract.js';
import { documentStoreContract } from './document-store.contract.js';

// The unit tests' fakes must behave like the real adapters.
documentStoreContract('in-memory fake', async () => new InMemoryDocumentStore());
blobStoreContract('in-memory fake', async () => new InMemoryBlobStore());
conversationStoreContract('in-memory fake', async () => ({
  conversations: new InMemoryConversationStore(),
  documents: new InMemoryDocumentStore(),
}));
