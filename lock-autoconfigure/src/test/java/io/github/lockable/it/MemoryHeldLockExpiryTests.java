package io.github.lockable.it;

import org.springframework.boot.test.context.SpringBootTest;

/**
 * {@link HeldLockExpiryTests} on the memory store.
 */
@SpringBootTest(classes = HeldLockExpiryTests.ExpiryApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "lockable.key-prefix=expiry", "lockable.store=memory" })
class MemoryHeldLockExpiryTests extends HeldLockExpiryTests {

}
