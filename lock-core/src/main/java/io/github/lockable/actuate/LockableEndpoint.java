package io.github.lockable.actuate;

import java.util.List;
import java.util.function.Supplier;

import io.github.lockable.Lockable;
import io.github.lockable.aop.LockableMethodDescriptor;
import io.github.lockable.core.HeldLocks;
import io.github.lockable.core.HeldLocks.HeldLockInfo;
import io.github.lockable.core.LockManager;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@link Endpoint @Endpoint} that shows how this application locks: every
 * {@link Lockable @Lockable} method with its settings, the lock store, and the locks this
 * instance holds now. It never shows a lock's token, nor any argument of a call.
 */
@Endpoint(id = "lockable")
public class LockableEndpoint {

	private final LockManager lockManager;

	private final HeldLocks heldLocks;

	private final Supplier<List<LockableMethodDescriptor>> methods;

	/**
	 * Creates the endpoint.
	 * @param lockManager the lock manager, for its store and the locks it holds, which it
	 * records from now on
	 * @param methods supplies the {@code @Lockable} methods, sorted by method
	 */
	public LockableEndpoint(LockManager lockManager, Supplier<List<LockableMethodDescriptor>> methods) {
		this.lockManager = lockManager;
		this.heldLocks = lockManager.heldLocks();
		this.methods = methods;
	}

	/**
	 * Reports the store, the {@code @Lockable} methods and the locks held now.
	 * @return the report
	 */
	@ReadOperation
	public LockableDescriptor lockable() {
		return new LockableDescriptor(this.lockManager.store().name(), this.methods.get(),
				this.heldLocks.snapshot());
	}

	/**
	 * What the {@code lockable} endpoint reports.
	 *
	 * @param store the name of the lock store: {@code redis}, {@code file},
	 * {@code memory}, or a custom store's name
	 * @param methods every {@code @Lockable} method, sorted by method
	 * @param held the locks this instance holds now, oldest first, without their tokens
	 */
	public record LockableDescriptor(String store, List<LockableMethodDescriptor> methods,
			List<HeldLockInfo> held) implements OperationResponseBody {

	}

}
