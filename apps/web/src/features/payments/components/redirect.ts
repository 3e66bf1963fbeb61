/** Sends the browser to the payment provider's page (a full page load, outside the app). */
export function goToPaymentPage(url: string): void {
  window.location.assign(url);
}
