package io.github.lockable.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.ReleaseWaiters;

/**
 * Waiters for the release of Redis locks, woken by the release script's message on the
 * lock's channel {@code {<lock key>}:released}.
 * <p>
 * One pub/sub connection serves every waiter of the store ({@link RedisSubscriber}),
 * opened from the store's own client when the first waiter comes. A channel is
 * subscribed when the first waiter of its key arrives and unsubscribed when the last one
 * leaves; a waiter leaves on its channel's message, at its maximum wait (the JDK's one
 * shared timer thread), or when it is cancelled. No thread waits.
 * <p>
 * When the pub/sub connection drops, every waiter completes at once (its caller retries
 * and waits again, as a release meanwhile was not heard). Lettuce reconnects it and
 * subscribes its channels again; the channels of the woken waiters are unsubscribed
 * behind that, and a new waiter's subscription is confirmed only once reconnected. A
 * connection Lettuce does not reconnect is closed, and the next waiter opens a new
 * one. While none can be opened,
 * waiters wait for their maximum wait, so callers poll at the pace of the holder's TTL
 * instead of spinning.
 */
final class RedisLockNotifications {

	private static final Logger logger = LoggerFactory.getLogger(RedisLockNotifications.class);

	private static final String SUFFIX = "}:released";

	private final StoreConnectionFactory client;

	private final Function<String, CompletableFuture<Boolean>> lockExists;

	private final Object monitor = new Object();

	/** The channels subscribed or being subscribed, by lock key; guarded by the monitor. */
	private final Map<String, Channel> channels = new HashMap<>();

	/** The open connection, or null; guarded by the monitor. */
	private @Nullable RedisSubscriber subscriber;

	/**
	 * The open under way, or null; it completes once what it opened is kept or, opened
	 * after a close, closed. Guarded by the monitor.
	 */
	private @Nullable CompletableFuture<Void> opening;

	/** Counts closes, so that an open that outlives a close drops its connection. */
	private int generation;

	/**
	 * Creates the registry; nothing is opened before the first waiter.
	 * @param client the store's client, which opens the pub/sub connection
	 * @param lockExists whether a lock key exists, asked on the store's own connection
	 */
	RedisLockNotifications(StoreConnectionFactory client, Function<String, CompletableFuture<Boolean>> lockExists) {
		this.client = Objects.requireNonNull(client, "client must not be null");
		this.lockExists = Objects.requireNonNull(lockExists, "lockExists must not be null");
	}

	/**
	 * The wake-up channel of a lock key: its hash tag is the whole key, which holds no
	 * braces (lock keys are {@code [A-Za-z0-9:._-]}), so it hashes to the key's slot.
	 * @param key the lock key
	 * @return the channel name
	 */
	static String channel(String key) {
		return "{" + key + SUFFIX;
	}

	private static @Nullable String key(String channel) {
		if (channel.length() <= 1 + SUFFIX.length() || channel.charAt(0) != '{' || !channel.endsWith(SUFFIX)) {
			return null;
		}
		return channel.substring(1, channel.length() - SUFFIX.length());
	}

	/**
	 * See {@link RedisLockStore#awaitRelease(String, Duration)}.
	 */
	CompletionStage<Void> awaitRelease(String key, Duration maxWait) {
		CompletableFuture<Void> waiter = ReleaseWaiters.timer(maxWait);
		if (waiter.isDone()) {
			return waiter;
		}
		Channel channel;
		synchronized (this.monitor) {
			channel = this.channels.get(key);
			if (channel == null) {
				channel = new Channel(key);
				this.channels.put(key, channel);
				if (this.subscriber != null) {
					channel.subscribe(this.subscriber);
				}
			}
			channel.waiters.add(waiter);
			if (this.subscriber == null) {
				startOpening();
			}
		}
		Channel joined = channel;
		waiter.whenComplete((done, ex) -> leave(joined, waiter));
		// A release between the caller's failed acquire and the subscription published to
		// nobody. Once the subscription is confirmed every later release reaches us, so one
		// look at the key then tells whether such a release already happened.
		channel.subscribed.thenCompose((subscribed) -> this.lockExists.apply(key))
			.whenComplete((exists, ex) -> {
				if (ex == null && !exists) {
					waiter.complete(null);
				}
				else if (ex != null && logger.isDebugEnabled()) {
					// Not at once: a caller would retry and fail the same way, spinning.
					logger.debug("Waiting for the release of '{}' without notification until the maximum wait", key,
							ex);
				}
			});
		return waiter;
	}

	private void leave(Channel channel, CompletableFuture<Void> waiter) {
		synchronized (this.monitor) {
			channel.waiters.remove(waiter);
			if (!channel.waiters.isEmpty() || this.channels.get(channel.key) != channel) {
				return;
			}
			this.channels.remove(channel.key);
			if (channel.subscriber != null && channel.subscriber == this.subscriber) {
				// Sent in order with the subscriptions on the same connection, so a new
				// waiter's subscribe that follows is not undone.
				this.subscriber.unsubscribe(channel.name);
			}
		}
	}

	void released(RedisSubscriber from, String channelName) {
		String key = key(channelName);
		if (key == null) {
			return;
		}
		List<CompletableFuture<Void>> woken;
		synchronized (this.monitor) {
			Channel channel = this.channels.get(key);
			if (from != this.subscriber || channel == null) {
				return;
			}
			woken = new ArrayList<>(channel.waiters);
		}
		woken.forEach((waiter) -> waiter.complete(null));
	}

	void disconnected(RedisSubscriber from) {
		List<CompletableFuture<Void>> woken;
		boolean reconnects = from.reconnects();
		synchronized (this.monitor) {
			if (from != this.subscriber) {
				return;
			}
			if (reconnects) {
				// Queued behind Lettuce's own resubscription, so that a new waiter's
				// subscription, queued after these, is the one that counts.
				this.channels.values().forEach((channel) -> from.unsubscribe(channel.name));
			}
			else {
				this.subscriber = null;
			}
			woken = dropChannels();
		}
		logger.debug("The Redis pub/sub connection of the lock store dropped; waiters retry");
		if (!reconnects) {
			from.close();
		}
		woken.forEach((waiter) -> waiter.complete(null));
	}

	private List<CompletableFuture<Void>> dropChannels() {
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		this.channels.values().forEach((channel) -> waiters.addAll(channel.waiters));
		this.channels.clear();
		return waiters;
	}

	/**
	 * Opens the connection with Lettuce's asynchronous connect; guarded by the monitor.
	 */
	private void startOpening() {
		if (this.opening != null) {
			return;
		}
		CompletableFuture<Void> settled = new CompletableFuture<>();
		this.opening = settled;
		int openedFor = this.generation;
		CompletableFuture<RedisSubscriber> connecting;
		try {
			connecting = RedisSubscriber.open(this.client, this);
		}
		catch (RuntimeException ex) {
			connecting = CompletableFuture.failedFuture(ex);
		}
		connecting.whenComplete((opened, ex) -> opened(openedFor, opened, ex)
			.whenComplete((kept, closeFailure) -> settled.complete(null)));
	}

	private CompletableFuture<Void> opened(int openedFor, @Nullable RedisSubscriber opened, @Nullable Throwable ex) {
		synchronized (this.monitor) {
			if (this.generation == openedFor) {
				this.opening = null;
				if (opened != null) {
					this.subscriber = opened;
					this.channels.values().forEach((channel) -> channel.subscribe(opened));
					return CompletableFuture.completedFuture(null);
				}
			}
		}
		if (opened != null) {
			return opened.close();
		}
		logger.debug("Cannot open the Redis pub/sub connection of the lock store; waiters poll", ex);
		return CompletableFuture.completedFuture(null);
	}

	/**
	 * Closes the pub/sub connection and completes every waiter; a later waiter opens a new
	 * connection.
	 * @return completes once the pub/sub connection is closed
	 */
	CompletableFuture<Void> close() {
		List<CompletableFuture<Void>> woken;
		RedisSubscriber closing;
		CompletableFuture<Void> opened;
		synchronized (this.monitor) {
			this.generation++;
			opened = (this.opening != null) ? this.opening : CompletableFuture.completedFuture(null);
			this.opening = null;
			closing = this.subscriber;
			this.subscriber = null;
			woken = dropChannels();
		}
		woken.forEach((waiter) -> waiter.complete(null));
		return (closing != null) ? CompletableFuture.allOf(closing.close(), opened) : opened;
	}

	/**
	 * The waiters of one key and their subscription.
	 */
	private static final class Channel {

		final String key;

		final String name;

		final Set<CompletableFuture<Void>> waiters = new LinkedHashSet<>();

		/** Completes when the server confirmed the subscription. */
		final CompletableFuture<Void> subscribed = new CompletableFuture<>();

		/** Where the subscription was sent, or null; guarded by the registry's monitor. */
		@Nullable RedisSubscriber subscriber;

		Channel(String key) {
			this.key = key;
			this.name = channel(key);
		}

		void subscribe(RedisSubscriber subscriber) {
			this.subscriber = subscriber;
			subscriber.subscribe(this.name).whenComplete((done, ex) -> {
				if (ex == null) {
					this.subscribed.complete(null);
				}
				else {
					this.subscribed.completeExceptionally(ex);
				}
			});
		}

	}

}
