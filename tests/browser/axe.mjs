// Accessibility through axe-core: serious and critical violations fail the test, with what and where.
import AxeBuilder from '@axe-core/playwright';

export async function seriousViolations(page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`);
}
