package io.github.lockable.sample;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the sample on one machine, with the default file store and no server:
 * while one generates the report, the other skips its run.
 */
@ExtendWith(OutputCaptureExtension.class)
class TwoInstancesTests {

	@Test
	void secondInstanceSkipsTheReportWhileTheFirstGeneratesIt(@TempDir Path locks, CapturedOutput output) {
		try (ConfigurableApplicationContext first = start(locks); ConfigurableApplicationContext second = start(locks)) {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> output.toString().contains("ReportJob.generate() skipped: already running "
						+ "(lock lockable-sample:report:daily on file, held for"));
			int runs = first.getBean(ReportJob.class).runs() + second.getBean(ReportJob.class).runs();
			assertThat(runs).isPositive();
			assertThat(output).contains("Report run 1 started");
		}
	}

	private static ConfigurableApplicationContext start(Path locks) {
		return new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--lockable.file.directory=" + locks, "--sample.report.initial-delay=0s",
				"--sample.report.interval=200ms", "--sample.report.duration=2s");
	}

}
