export default function globalSetup(): void {}
