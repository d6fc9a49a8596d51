package io.github.lockable.apicheck;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two listings ({@code diff -u}'s hunks, 3 lines of context), from their
 * longest common subsequence; a listing has some thousand lines, which this computes in
 * milliseconds.
 */
public final class ListingDiff {

	private static final int CONTEXT = 3;

	private ListingDiff() {
	}

	/**
	 * The differences of {@code actual} from {@code expected}, empty when there is none.
	 * @param maxLines lines of hunks shown at most; a last line says how many more changed
	 */
	public static List<String> unified(String expectedName, List<String> expected, String actualName,
			List<String> actual, int maxLines) {
		int n = expected.size();
		int m = actual.size();
		int[][] common = new int[n + 1][m + 1];
		for (int i = n - 1; i >= 0; i--) {
			for (int j = m - 1; j >= 0; j--) {
				common[i][j] = expected.get(i).equals(actual.get(j)) ? common[i + 1][j + 1] + 1
						: Math.max(common[i + 1][j], common[i][j + 1]);
			}
		}
		// The edit script: ' ', '-' or '+' and the line, with each line's numbers
		StringBuilder kinds = new StringBuilder();
		List<String> texts = new ArrayList<>();
		List<int[]> numbers = new ArrayList<>();
		int i = 0;
		int j = 0;
		while (i < n || j < m) {
			if (i < n && j < m && expected.get(i).equals(actual.get(j))) {
				kinds.append(' ');
				texts.add(expected.get(i));
				numbers.add(new int[] { i++, j++ });
			}
			else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
				kinds.append('-');
				texts.add(expected.get(i));
				numbers.add(new int[] { i++, j });
			}
			else {
				kinds.append('+');
				texts.add(actual.get(j));
				numbers.add(new int[] { i, j++ });
			}
		}
		List<String> lines = new ArrayList<>();
		int changes = 0;
		int shownChanges = 0;
		int edits = kinds.length();
		int k = 0;
		while (k < edits) {
			if (kinds.charAt(k) == ' ') {
				k++;
				continue;
			}
			// A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change
			// that is at most 2 * CONTEXT unchanged lines from the one before
			int start = Math.max(0, k - CONTEXT);
			int end = k;
			int unchanged = 0;
			for (int e = k; e < edits && unchanged <= 2 * CONTEXT; e++) {
				if (kinds.charAt(e) == ' ') {
					unchanged++;
				}
				else {
					unchanged = 0;
					end = e;
				}
			}
			end = Math.min(edits - 1, end + CONTEXT);
			List<String> hunk = new ArrayList<>();
			int hunkChanges = 0;
			int expectedCount = 0;
			int actualCount = 0;
			for (int e = start; e <= end; e++) {
				char kind = kinds.charAt(e);
				hunk.add(kind + texts.get(e));
				hunkChanges += (kind == ' ') ? 0 : 1;
				expectedCount += (kind == '+') ? 0 : 1;
				actualCount += (kind == '-') ? 0 : 1;
			}
			changes += hunkChanges;
			if (lines.size() + hunk.size() + 1 <= maxLines || lines.isEmpty()) {
				if (lines.isEmpty()) {
					lines.add("--- " + expectedName);
					lines.add("+++ " + actualName);
				}
				lines.add("@@ -%d,%d +%d,%d @@".formatted(numbers.get(start)[0] + 1, expectedCount,
						numbers.get(start)[1] + 1, actualCount));
				lines.addAll(hunk.subList(0, Math.min(hunk.size(), Math.max(1, maxLines - lines.size()))));
				shownChanges += hunkChanges;
			}
			k = end + 1;
		}
		if (changes > shownChanges) {
			lines.add("... and %d more changed lines".formatted(changes - shownChanges));
		}
		return lines;
	}

}
