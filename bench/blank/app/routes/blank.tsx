export default function Blank() {
  return (
    <main>
      <h1>Blank</h1>
    </main>
  );
}
