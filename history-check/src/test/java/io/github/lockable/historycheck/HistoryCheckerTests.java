package io.github.lockable.historycheck;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each check of {@link HistoryChecker} catches its violation in a history written by hand,
 * and stays silent on a clean one.
 */
class HistoryCheckerTests {

	@Test
	void aCleanHistoryBreaksNoRule() {
		CheckReport report = new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 100)
			.lease("w2", "k1", 11, 10, 150, 250)
			.lease("w3", "k2", 12, 0, 160, 260)
			.check();
		assertThat(report.grants()).isEqualTo(3);
		assertThat(report.writesAccepted()).isEqualTo(3);
		assertThat(report.overlaps()).isEmpty();
		assertThat(report.brokenSafetyRules()).isEmpty();
		assertThat(Mode.NONE.brokenRules(report)).isEmpty();
		assertThat(report.orphanRefusals()).isZero();
	}

	@Test
	void holdersAtOnceAreAnOverlapThatOnlyAFaultWindowExplains() {
		SyntheticHistory history = new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 3000)
			.lease("w2", "k1", 11, 10, 2500, 2600);
		CheckReport unexplained = history.check();
		assertThat(unexplained.overlaps()).hasSize(1);
		assertThat(unexplained.overlapsUnexplained()).isEqualTo(1);
		assertThat(unexplained.brokenSafetyRules()).anyMatch((rule) -> rule.contains("overlapping holders"));

		CheckReport explained = history.fault("pause", 100, 2400).check();
		assertThat(explained.overlaps()).singleElement()
			.satisfies((overlap) -> assertThat(overlap.explainedBy().fault()).isEqualTo("pause"));
		assertThat(explained.brokenSafetyRules()).isEmpty();
		assertThat(Mode.PAUSE.brokenRules(explained)).isEmpty();
		assertThat(Mode.NONE.brokenRules(explained)).isNotEmpty();
	}

	@Test
	void anAcceptedWriteWithATokenNotAboveTheLastIsCaught() {
		CheckReport report = new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 100)
			.request(150, "w2", "k1")
			.grant(151, "w2", "k1", 9)
			.event(152, "w2", "write-accepted", "k1", 9, 10, "")
			.release(200, "w2", "k1", 9)
			.check();
		assertThat(report.acceptedNotAbove()).isEqualTo(1);
		assertThat(report.brokenSafetyRules()).anyMatch((rule) -> rule.contains("not above the last accepted"));
	}

	@Test
	void aPausedHolderThatWritesAfterANewerHolderIsAStaleWriteRefused() {
		CheckReport report = new SyntheticHistory().request(0, "w1", "k1")
			.grant(1, "w1", "k1", 10)
			.lease("w2", "k1", 11, 0, 2100, 2200)
			.write(3000, "w1", "k1", 10, 11)
			.release(3001, "w1", "k1", 10)
			.fault("pause", 10, 3000)
			.check();
		assertThat(report.staleRefused()).isEqualTo(1);
		assertThat(report.currentHoldersRefused()).isZero();
		assertThat(report.tokensBack()).isZero();
		assertThat(report.grantsWhileLive()).isZero();
		assertThat(Mode.PAUSE.brokenRules(report)).isEmpty();
	}

	/**
	 * The rule before issue 17: a restart without persistence starts the counter at 1 again.
	 * The new rule's token (the store's clock in microseconds) stays above the old ones.
	 */
	@Test
	void tokensThatRestartAt1AfterARestartRefuseTheCurrentHolder() {
		CheckReport report = restartThenGrant(1).check();
		assertThat(report.currentHoldersRefused()).isEqualTo(1);
		assertThat(report.tokensBack()).isEqualTo(1);
		assertThat(Mode.RESTART.brokenRules(report)).hasSize(2);

		CheckReport newRule = restartThenGrant(1_796_190_670_734_089L).check();
		assertThat(newRule.currentHoldersRefused()).isZero();
		assertThat(newRule.tokensBack()).isZero();
		assertThat(Mode.RESTART.brokenRules(newRule)).isEmpty();
	}

	/**
	 * A lease with token 500, a restart, then a lease with the given token: 1 under the rule
	 * before issue 17 (a lost counter starts at 1 again), the store's clock in microseconds
	 * under the new one.
	 */
	private static SyntheticHistory restartThenGrant(long tokenAfter) {
		return new SyntheticHistory().lease("w1", "k1", 500, 0, 0, 100)
			.fault("restart", 200, 300)
			.lease("w2", "k1", tokenAfter, 500, 400, 500);
	}

	@Test
	void aGrantWhileAnotherLeaseIsSurelyLiveIsExplainedOnlyByAStoreThatForgot() {
		CheckReport report = grantDuringALiveLease().check();
		assertThat(report.grantsWhileLive()).isEqualTo(1);
		assertThat(report.grantsWhileLiveUnexplained()).isEqualTo(1);

		CheckReport paused = grantDuringALiveLease().fault("pause", 100, 400).check();
		assertThat(paused.grantsWhileLiveUnexplained()).isEqualTo(1);

		CheckReport restarted = grantDuringALiveLease().fault("restart", 100, 400).check();
		assertThat(restarted.grantsWhileLive()).isEqualTo(1);
		assertThat(restarted.grantsWhileLiveUnexplained()).isZero();
	}

	private static SyntheticHistory grantDuringALiveLease() {
		return new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 1000).lease("w2", "k1", 20, 10, 500, 600);
	}

	@Test
	void aLeaseExpiredBeforeTheNextGrantIsNotSurelyLive() {
		CheckReport report = new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 3000)
			.lease("w2", "k1", 20, 10, 2500, 2600)
			.check();
		assertThat(report.grantsWhileLive()).isZero();
	}

	@Test
	void isHeldTrueAfterTheTtlIsCaught() {
		CheckReport report = new SyntheticHistory().request(0, "w1", "k1")
			.grant(1, "w1", "k1", 10)
			.event(1000, "w1", "check", "k1", 10, 0, "")
			.event(1001, "w1", "held", "k1", 10, 0, "true")
			.event(2500, "w1", "check", "k1", 10, 0, "")
			.event(2501, "w1", "held", "k1", 10, 0, "true")
			.release(2600, "w1", "k1", 10)
			.check();
		assertThat(report.heldPastTtl()).isEqualTo(1);
	}

	@Test
	void aRefusalWhileNoLeaseCouldHoldTheKeyIsAnOrphan() {
		CheckReport report = new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 100)
			.request(200, "w2", "k1")
			.event(201, "w2", "refused", "k1", 0, 0, "")
			.request(300, "w3", "k2")
			.event(301, "w3", "failed", "k2", 0, 0, "RedisCommandTimeoutException")
			.request(400, "w2", "k2")
			.event(401, "w2", "refused", "k2", 0, 0, "")
			.check();
		assertThat(report.orphanRefusals()).as("k2 may be held by w3's failed acquire").isEqualTo(1);
		assertThat(Mode.NONE.brokenRules(report)).anyMatch((rule) -> rule.contains("nobody held"));
	}

	@Test
	void theControlIsExpectedToFailTheChecker() {
		CheckReport report = new SyntheticHistory().lease("w1", "k1", 10, 0, 0, 100)
			.lease("w2", "k1", 11, 10, 50, 150)
			.check();
		List<String> broken = Mode.CONTROL.brokenRules(report);
		assertThat(broken).isNotEmpty();
		assertThat(Mode.CONTROL.expected(broken)).isTrue();
		assertThat(Mode.CONTROL.expected(List.of())).isFalse();
	}

}
